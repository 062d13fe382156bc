import { describeValue } from "../vocabulary/describe-value.js";
import type { Scorecard } from "../scorecard/scorecard-schema.js";
import { compareIds } from "../scoring/compare-ids.js";
import { pickScenarioCards } from "./pick-scenario-cards.js";
import { formatShard } from "./shard-spec.js";

/**
 * What shards of one round must share. Runner and GPU may differ (that is the point of sharding);
 * anything that changes what is measured or how it is scored may not. Image IDs of images built on
 * each runner (the candidate's, a baseline with baseline.build) differ from build to build even for
 * the same inputs, so those are compared by what they are built from (the patch, the config); a
 * pulled baseline's ID must match, since a tag that moved between shards is a different baseline.
 */
/**
 * A shard converted from version 1 (a runner on an older speedgate) never had the later settings and
 * gate limits: when one is among the shards, only what version 1 had (and the runs, which it had as
 * one) is compared, and the merge takes the rest from a current shard.
 */
function comparedSettings(card: Scorecard, versionOneOnly: boolean): unknown {
  if (!versionOneOnly) return card.settings;
  const { requestIntervalMs, arrival, thinking, contextLimit, maxTokens, tolerance, model, runs } = card.settings;
  return { requestIntervalMs, arrival, thinking, contextLimit, maxTokens, tolerance, model, runs };
}

function comparedGate(card: Scorecard, versionOneOnly: boolean): unknown {
  const { minRoundScore, use, maxUnscored, minPrompts } = card.gate;
  return versionOneOnly ? { minRoundScore, use } : { minRoundScore, use, maxUnscored, minPrompts };
}

const MUST_AGREE: ReadonlyArray<{ what: string; pick: (card: Scorecard, versionOneOnly: boolean) => unknown }> = [
  { what: "schemaVersion", pick: (card) => card.schemaVersion },
  { what: "speedgateVersion", pick: (card) => card.speedgateVersion },
  { what: "engine", pick: (card) => card.engine },
  { what: "settings", pick: comparedSettings },
  { what: "gate", pick: comparedGate },
  // The same A/A study, by when it was measured and what it measured; its fit to each shard is recomputed.
  {
    what: "gate.calibration",
    pick: (card) => (card.gate.calibration ? { measuredAt: card.gate.calibration.measuredAt, scores: card.gate.calibration.scores } : null),
  },
  { what: "provenance.baselineImage", pick: (card) => card.provenance.baselineImage },
  { what: "provenance.baselineImageId", pick: (card) => (card.provenance.baselineImage === null ? null : card.provenance.baselineImageId) },
  { what: "provenance.patchHash", pick: (card) => card.provenance.patchHash },
  { what: "provenance.configHash", pick: (card) => card.provenance.configHash },
  { what: "provenance.promptsHash", pick: (card) => card.provenance.promptsHash },
  // The same question set, scorer and limit: each shard judged its share of one set.
  {
    what: "quality",
    pick: (card) =>
      card.quality ? { questionsHash: card.quality.questionsHash, scorer: card.quality.scorer, maxTokens: card.quality.maxTokens } : null,
  },
  { what: "source.repository", pick: (card) => card.source?.repository ?? null },
  { what: "source.pullRequest", pick: (card) => card.source?.pullRequest ?? null },
  { what: "source.headSha", pick: (card) => card.source?.headSha ?? null },
  { what: "shard count", pick: (card) => card.shard?.count ?? null },
  // Base/head mode: the same base, head and image commit (each runner's cache and build may differ).
  {
    what: "commits",
    pick: (card) => (card.commits ? { base: card.commits.base, head: card.commits.head, imageRevision: card.commits.imageRevision } : null),
  },
];

/** Object keys in a fixed order, so two equal settings objects compare equal whatever their key order. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "undefined";
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => compareIds(a, b));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(",")}}`;
}

/** The scenarios a card ran, by name in config order; null for a round without scenarios. */
function scenarioNames(card: Scorecard): string[] | null {
  return card.scenarios ? card.scenarios.map((scenario) => scenario.name) : null;
}

function describeScenarios(names: readonly string[] | null): string {
  return names === null ? "no scenarios" : `scenarios ${describeValue(names, 200)}`;
}

/** Shards whose scenario lists differ (or one with and one without): they ran different round configs. */
function findScenarioListProblems(cards: readonly Scorecard[], labelOf: (position: number) => string): string[] {
  const expected = scenarioNames(cards[0] as Scorecard);
  const problems: string[] = [];
  cards.forEach((card, position) => {
    const actual = scenarioNames(card);
    if (position === 0 || canonical(actual) === canonical(expected)) return;
    problems.push(
      `${labelOf(position)}: has ${describeScenarios(actual)} but ${labelOf(0)} has ${describeScenarios(expected)}; ` +
        "shards of one round must run the same scenarios in the same order: run every shard with the same round config",
    );
  });
  return problems;
}

/** What must agree, compared between the first card and each other one; `scope` names the scenario, if any. */
function findDisagreements(cards: readonly Scorecard[], labelOf: (position: number) => string, scope: string): string[] {
  const first = cards[0] as Scorecard;
  const versionOneOnly = cards.some((card) => card.convertedFrom === 1);
  const problems: string[] = [];
  for (const { what, pick: pickFull } of MUST_AGREE) {
    const pick = (card: Scorecard): unknown => pickFull(card, versionOneOnly);
    const expected = canonical(pick(first));
    cards.forEach((card, position) => {
      if (position === 0) return;
      const actual = canonical(pick(card));
      if (actual !== expected) {
        problems.push(
          `${labelOf(position)}: ${scope}${what} is ${describeValue(pick(card), 120)} but ${labelOf(0)} has ` +
            `${describeValue(pick(first), 120)}; shards of one round must share it`,
        );
      }
    });
  }
  return problems;
}

/** Prompts that two shards both ran (within one scenario: scenarios may share prompt ids). */
function findOverlaps(cards: readonly Scorecard[], labelOf: (position: number) => string, scope: string): string[] {
  const problems: string[] = [];
  const owner = new Map<string, number>();
  cards.forEach((card, position) => {
    for (const prompt of card.prompts) {
      const earlier = owner.get(prompt.id);
      if (earlier !== undefined && earlier !== position) {
        problems.push(
          `${scope}prompt ${describeValue(prompt.id)} is in both ${labelOf(earlier)} and ${labelOf(position)}; shards must not overlap`,
        );
      }
      owner.set(prompt.id, position);
    }
  });
  // A question two shards both asked would count twice in the paired test.
  const asker = new Map<string, number>();
  cards.forEach((card, position) => {
    for (const question of card.quality?.questions ?? []) {
      const earlier = asker.get(question.id);
      if (earlier !== undefined && earlier !== position) {
        problems.push(
          `${scope}quality question ${describeValue(question.id)} is in both ${labelOf(earlier)} and ${labelOf(position)}; shards must ` +
            "not overlap",
        );
      }
      asker.set(question.id, position);
    }
  });
  return problems;
}

/**
 * Every reason these cards are not the shards of one round, each naming the card (by its label,
 * such as its file path) and what is wrong. Empty when they can be merged. Shards of a round with
 * scenarios must hold the same scenarios, and each scenario's cards must agree as a round's do.
 */
export function findShardProblems(cards: readonly Scorecard[], labels: readonly string[]): string[] {
  const labelOf = (position: number): string => {
    const card = cards[position];
    const name = labels[position] ?? `card ${position + 1}`;
    return card?.shard ? `${name} (${formatShard(card.shard)})` : name;
  };
  if (cards.length === 0) return ["expected at least one shard scorecard.json, got none"];
  const problems: string[] = [];
  cards.forEach((card, position) => {
    if (!card.shard)
      problems.push(`${labelOf(position)}: expected a shard's card (written with shard: i/n), got an unsharded or merged card`);
  });
  if (problems.length > 0) return problems;
  const listProblems = findScenarioListProblems(cards, labelOf);
  if (listProblems.length > 0) return listProblems.slice(0, 20);

  const first = cards[0] as Scorecard;
  // Each scenario's cards are what is merged: the top level is only the first scenario's copy.
  const scopes = (scenarioNames(first) ?? [null]).map((name) =>
    name === null ? { scope: "", cards } : { scope: `scenario ${describeValue(name)}: `, cards: pickScenarioCards(cards, name) },
  );
  for (const { scope, cards: scoped } of scopes) problems.push(...findDisagreements(scoped, labelOf, scope));
  if (first.scenarios) {
    const limit = (card: Scorecard): number | null => card.gate.maxRegression ?? null;
    cards.forEach((card, position) => {
      if (position > 0 && limit(card) !== limit(first)) {
        problems.push(
          `${labelOf(position)}: gate.maxRegression is ${describeValue(limit(card))} but ${labelOf(0)} has ` +
            `${describeValue(limit(first))}; shards of one round must share it`,
        );
      }
    });
  }
  if (problems.length > 0) return problems.slice(0, 20);

  const count = first.shard?.count ?? 0;
  const holders = new Map<number, number[]>();
  cards.forEach((card, position) => {
    const index = card.shard?.index ?? 0;
    holders.set(index, [...(holders.get(index) ?? []), position]);
  });
  for (const [index, positions] of holders) {
    if (positions.length > 1) {
      problems.push(
        `shard ${index} of ${count} is given ${positions.length} times: ` +
          `${positions.map((position) => labels[position] ?? `card ${position + 1}`).join(", ")}`,
      );
    }
  }
  for (let index = 1; index <= count; index++) {
    if (!holders.has(index)) problems.push(`shard ${index} of ${count} is missing; expected one card for each of shards 1 to ${count}`);
  }
  for (const { scope, cards: scoped } of scopes) problems.push(...findOverlaps(scoped, labelOf, scope));
  return problems.slice(0, 20);
}
