import type { Scorecard } from "../scorecard/scorecard-schema.js";
import type { MainRoundRecord } from "./main-series.js";

/** What a round of main says of itself for main's series: the commits it scored and each scenario's score and interval. */
export interface MainRoundFacts {
  /** The card's base/head commits; null for a card that did not score two commits (not a round of main). */
  commits: { base: string; head: string } | null;
  scores: MainRoundRecord["scores"];
  runner: string | null;
  gpu: string | null;
  engine: string | null;
  failureKind: string | null;
  cardCreatedAt: string | null;
}

const intervalOf = (card: Pick<Scorecard, "scoreInterval">): { low: number; high: number } | null =>
  card.scoreInterval ? { low: card.scoreInterval.low, high: card.scoreInterval.high } : null;

/** Read where the card is read (off the app's event loop), so a job gets the series' facts without the card itself. */
export function mainRoundFactsFrom(card: Scorecard): MainRoundFacts {
  const scores =
    card.scenarios && card.scenarios.length > 0
      ? card.scenarios.map((scenario) => ({
          scenario: scenario.name,
          score: scenario.card.roundScore,
          interval: intervalOf(scenario.card),
        }))
      : [{ scenario: null, score: card.roundScore, interval: intervalOf(card) }];
  const createdAt = Date.parse(card.createdAt);
  return {
    commits: card.commits ? { base: card.commits.base, head: card.commits.head } : null,
    scores,
    runner: card.provenance.runner,
    gpu: card.provenance.gpu,
    engine: card.engine,
    failureKind: card.failure?.kind ?? null,
    cardCreatedAt: Number.isNaN(createdAt) ? null : new Date(createdAt).toISOString(),
  };
}
