import { ConfigError } from "../vocabulary/config-error.js";
import { mergeRoundMetrics } from "../metrics/merge-round-metrics.js";
import { assembleScenarioCard } from "../scorecard/assemble-scenario-card.js";
import { rescoreCard } from "../scorecard/rescore-card.js";
import { recordedGateSettings } from "../scorecard/rescore-scenario-card.js";
import type { Scorecard } from "../scorecard/scorecard-schema.js";
import { describeEngineFailure } from "../scoring/score-round.js";
import { compareIds } from "../scoring/compare-ids.js";
import { findShardProblems } from "./find-shard-problems.js";
import { pickScenarioCards } from "./pick-scenario-cards.js";
import { type ShardSpec, formatShard } from "./shard-spec.js";

export interface MergeOptions {
  /** Where each card came from (file paths), in the same order, so a refusal names the file. */
  labels?: readonly string[];
  now?: Date;
  /** Starts a refusal's message, such as the input or command that named the cards. */
  source?: string;
  /** Must match the seed the shards' rounds used, so the interval equals an unsharded round's. */
  bootstrapSeed?: number;
}

type Failure = NonNullable<Scorecard["failure"]>;
type ShardCard = Scorecard & { shard: ShardSpec };

/** Runners, GPUs and locally built images differ between shards; the card lists them all, within the schema's bounds. */
function joinDistinct(values: ReadonlyArray<string | null>, max: number): string | null {
  const distinct = [...new Set(values.filter((value): value is string => value !== null))];
  if (distinct.length === 0) return null;
  const joined = distinct.join("; ");
  return joined.length <= max ? joined : `${joined.slice(0, max - 1)}…`;
}

/**
 * The failure the merged card reports, its summary saying which shard it happened on. A baseline
 * failure anywhere comes first, as in an unsharded round: without a sound reference there is no verdict.
 */
function pickFailure(cards: readonly ShardCard[]): { failure: Failure; description: string; gpuState: Scorecard["gpuState"] } | null {
  const failed = cards.filter((card) => card.failure !== null);
  const first = failed.find((card) => card.failure?.engine === "baseline") ?? failed[0];
  if (!first?.failure) return null;
  const others = failed.filter((card) => card !== first).map((card) => formatShard(card.shard));
  const also = others.length > 0 ? ` (${others.join(", ")} also failed)` : "";
  const summary = `${formatShard(first.shard)}: ${first.failure.summary}${also}`;
  return {
    failure: { ...first.failure, summary: summary.length <= 2_000 ? summary : `${summary.slice(0, 1_999)}…` },
    gpuState: first.gpuState,
    description: `${describeEngineFailure(first.failure, first.settings.runs)} on ${formatShard(first.shard)}${also}`,
  };
}

/**
 * Combines the cards of a sharded round into the card of the whole round. Every prompt's score,
 * the round score, its interval and the gate are recomputed from every prompt's per-run tokens and
 * times with the same summary as an unsharded round (a median of shard medians is not the median). Prompts are listed by id: the prompts
 * file's order is not on the cards. A round with scenarios is merged scenario by scenario and assembled
 * again, as a fresh round's card is. Refuses (ConfigError) shards that do not belong to one round.
 */
export function mergeScorecards(cards: Scorecard[], options: MergeOptions = {}): Scorecard {
  const problems = findShardProblems(cards, options.labels ?? []);
  if (problems.length > 0) throw ConfigError.fromProblems(problems, options.source ?? "cannot merge these shard cards");
  const now = options.now ?? new Date();
  const first = cards[0];
  if (!first?.scenarios) return mergeShardCards(cards, { ...options, now });
  const scenarios = first.scenarios.map(({ name }) => {
    const { scenarios: _none, ...card } = mergeShardCards(pickScenarioCards(cards, name), { ...options, now });
    return { name, card };
  });
  // findShardProblems saw every shard name the same gate.maxRegression.
  return assembleScenarioCard(scenarios, first.gate.maxRegression ?? null);
}

/** The merge of shard cards that findShardProblems found to be one round's (of one scenario, in a round with scenarios). */
function mergeShardCards(cards: readonly Scorecard[], options: MergeOptions & { now: Date }): Scorecard {
  const shards = (cards as ShardCard[]).slice().sort((a, b) => a.shard.index - b.shard.index);
  const first = shards[0];
  if (!first) throw new ConfigError("cards: expected at least one shard scorecard.json, got none");
  // A shard converted from version 1 lacks the later settings and gate limits: a current shard has them.
  const current = shards.find((card) => card.convertedFrom === null) ?? first;

  const prompts = shards.flatMap((card) => card.prompts).sort((a, b) => compareIds(a.id, b.id));
  const picked = pickFailure(shards);
  // Each shard spent its own time on its own runner, side by side: neither a sum (runner time, not the
  // round's) nor any one shard's says where the round's time went, so the merged card has none.
  const { timeSpent: _timeSpent, ...firstCard } = first;
  const combined: Scorecard = {
    ...firstCard,
    settings: current.settings,
    createdAt: options.now.toISOString(),
    tokenCountsEstimated: shards.some((card) => card.tokenCountsEstimated),
    provenance: {
      ...first.provenance,
      imageDigest: joinDistinct(
        shards.map((card) => card.provenance.imageDigest),
        256,
      ),
      baselineImageId: joinDistinct(
        shards.map((card) => card.provenance.baselineImageId),
        256,
      ),
      runner: joinDistinct(
        shards.map((card) => card.provenance.runner),
        256,
      ),
      gpu: joinDistinct(
        shards.map((card) => card.provenance.gpu),
        512,
      ),
    },
    metrics: mergeRoundMetrics(shards.map((card) => card.metrics)),
    // The GPU state that explains a failure is the failing shard's runner's; otherwise the first shard's.
    gpuState: picked?.gpuState ?? first.gpuState,
    docsBaseUrl: shards.find((card) => card.docsBaseUrl !== null)?.docsBaseUrl ?? null,
    failure: picked?.failure ?? null,
    source: shards.find((card) => card.source !== null)?.source ?? null,
    shard: null,
    // Converted version-1 shards keep their own scores (they kept no times at k); a runner on an older speedgate may finish some shards.
    convertedFrom: shards.some((card) => card.convertedFrom === 1) ? 1 : null,
    prompts,
    // Each shard asked its share of the questions: the merged card judges them all together, as one round would.
    ...(first.quality
      ? {
          quality: {
            ...first.quality,
            questions: shards.flatMap((card) => card.quality?.questions ?? []).sort((a, b) => compareIds(a.id, b.id)),
          },
        }
      : {}),
  };
  return rescoreCard(combined, {
    gate: recordedGateSettings(current),
    failureDescription: picked?.description ?? null,
    bootstrapSeed: options.bootstrapSeed,
  });
}
