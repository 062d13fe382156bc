import { ConfigError } from "../vocabulary/config-error.js";
import { describeValue } from "../vocabulary/describe-value.js";

/** Which share of a round's prompts one runner benchmarks: shard `index` (1-based) of `count`. */
export interface ShardSpec {
  index: number;
  count: number;
}

/** More shards than this is a typo, not a fleet: each shard still starts two engines. */
export const MAX_SHARDS = 1000;

/**
 * Parses "i/n" as people write it in a workflow matrix (`shard: ${{ matrix.shard }}/4`).
 * `label` names where the value came from (the action input, a CLI flag) so the error points there.
 */
export function parseShardSpec(text: string, label: string): ShardSpec {
  const expected = `expected "i/n" with whole numbers 1 <= i <= n <= ${MAX_SHARDS}, such as "2/4"`;
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!match) throw new ConfigError(`${label}: ${expected}, got ${describeValue(text)}`);
  const index = Number(match[1]);
  const count = Number(match[2]);
  if (count < 1 || count > MAX_SHARDS || index < 1 || index > count) {
    throw new ConfigError(`${label}: ${expected}, got ${describeValue(text)}`);
  }
  return { index, count };
}

export function formatShard(shard: ShardSpec): string {
  return `shard ${shard.index} of ${shard.count}`;
}
