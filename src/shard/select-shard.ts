import type { ShardSpec } from "./shard-spec.js";
import { compareIds } from "../scoring/compare-ids.js";

/**
 * The prompts shard `index` of `count` benchmarks: deal the prompt ids, sorted, round-robin.
 *
 * Why this rule: every runner computes the same split from the prompts file alone (no coordination),
 * sorting makes it independent of the order prompts appear in, and dealing round-robin keeps the
 * shards within one prompt of each other, so no runner is the long pole. A hash of the id modulo n
 * is just as deterministic but leaves shards uneven for the few hundred prompts a round has.
 * The chosen prompts keep their order from the file, which is the order requests are sent in.
 */
export function selectShard<T extends { id: string }>(prompts: T[], shard: ShardSpec): T[] {
  if (!Number.isInteger(shard.count) || shard.count < 1 || !Number.isInteger(shard.index) || shard.index < 1 || shard.index > shard.count) {
    throw new RangeError(`selectShard: expected 1 <= index <= count, got ${shard.index}/${shard.count}`);
  }
  const sortedIds = prompts.map((prompt) => prompt.id).sort(compareIds);
  const chosen = new Set(sortedIds.filter((_, position) => position % shard.count === shard.index - 1));
  return prompts.filter((prompt) => chosen.has(prompt.id));
}
