import type { LoadedRound } from "../config/load-round-config.js";
import { selectShard } from "./select-shard.js";
import type { ShardSpec } from "./shard-spec.js";

/** A prompt set that has nothing left in a shard: a shard with more runners than prompts. */
export interface EmptyShardPart {
  /** The scenario whose prompts these are; null for bench.prompts. */
  scenario: string | null;
  /** How many prompts the whole set has. */
  total: number;
}

export interface RoundShard {
  round: LoadedRound;
  empty: EmptyShardPart[];
}

/**
 * The part of a round one shard runs: the same selectShard rule on bench.prompts, on every scenario's
 * prompts and on the quality set's questions, so the shards of each add up to the whole of it when merged.
 */
export function selectRoundShard(round: LoadedRound, shard: ShardSpec): RoundShard {
  const prompts = selectShard(round.prompts, shard);
  // With scenarios, bench.prompts are sent only as a scenario's (each checked below), and may be none at all.
  const empty: EmptyShardPart[] = prompts.length === 0 && !round.scenarios ? [{ scenario: null, total: round.prompts.length }] : [];
  const scenarios = round.scenarios?.map((scenario) => {
    const own = selectShard(scenario.prompts, shard);
    if (own.length === 0) empty.push({ scenario: scenario.name, total: scenario.prompts.length });
    return { ...scenario, prompts: own };
  });
  // The question set is dealt the same way, its hash still the whole set's: the merged card judges every question once.
  const quality = round.quality ? { ...round.quality, questions: selectShard(round.quality.questions, shard) } : undefined;
  return { round: { ...round, prompts, ...(scenarios ? { scenarios } : {}), ...(quality ? { quality } : {}) }, empty };
}
