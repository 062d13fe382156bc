import { describe, expect, it } from "vitest";
import type { LoadedRound } from "../../src/config/load-round-config.js";
import { parseRoundConfig } from "../../src/config/load-round-config.js";
import type { Prompt } from "../../src/prompts/prompt.js";
import { selectRoundShard } from "../../src/shard/select-round-shard.js";
import { selectShard } from "../../src/shard/select-shard.js";

const prompts = (prefix: string, count: number): Prompt[] =>
  Array.from({ length: count }, (_, index) => ({ id: `${prefix}${index + 1}`, prompt: `${prefix} ${index}` }));

function roundWith(scenarios: Array<{ name: string; prompts: Prompt[] }>): LoadedRound {
  const config = parseRoundConfig({
    engine: "sim",
    runtime: "process",
    port: 1,
    baseline: { command: ["serve"] },
    bench: { prompts: "p.jsonl", maxTokens: 8, requestIntervalMs: 0, contextLimit: 64, tolerance: 0.9 },
    gate: { minRoundScore: 1 },
    scenarios: scenarios.map(({ name }) => ({ name })),
  });
  const fingerprint = { configHash: "c", promptsHash: "p" };
  return {
    config,
    configPath: "/r/round.yml",
    prompts: prompts("b", 4),
    patch: null,
    scenarios: scenarios.map((scenario) => ({ ...scenario, config, fingerprint })),
  };
}

describe("selectRoundShard", () => {
  it("deals every scenario's prompts by the same rule as bench's, so a scenario's shards add up to all of it", () => {
    const chat = prompts("c", 7);
    const decode = prompts("d", 3);
    const round = roundWith([
      { name: "chat", prompts: chat },
      { name: "decode", prompts: decode },
    ]);
    const shards = [1, 2, 3].map((index) => selectRoundShard(round, { index, count: 3 }));
    for (const [index, shard] of shards.entries()) {
      expect(shard.empty).toEqual([]);
      expect(shard.round.prompts).toEqual(selectShard(round.prompts, { index: index + 1, count: 3 }));
      expect(shard.round.scenarios?.[0]?.prompts).toEqual(selectShard(chat, { index: index + 1, count: 3 }));
    }
    const decodeIds = shards.flatMap((shard) => shard.round.scenarios?.[1]?.prompts.map((prompt) => prompt.id) ?? []);
    expect(decodeIds.sort()).toEqual(["d1", "d2", "d3"]);
  });

  it("names each scenario a shard would run nothing of", () => {
    const round = roundWith([
      { name: "chat", prompts: prompts("c", 7) },
      { name: "tiny", prompts: prompts("t", 1) },
    ]);
    expect(selectRoundShard(round, { index: 2, count: 2 }).empty).toEqual([{ scenario: "tiny", total: 1 }]);
    // bench.prompts' 4 are sent only as a scenario's: a shard with none of them is judged by its scenarios.
    expect(selectRoundShard(round, { index: 5, count: 5 }).empty).toEqual([{ scenario: "tiny", total: 1 }]);
  });

  it("shards a round whose scenarios all bring their own prompts and bench has none", () => {
    const round = {
      ...roundWith([
        { name: "chat", prompts: prompts("c", 4) },
        { name: "decode", prompts: prompts("d", 2) },
      ]),
      prompts: [],
    };
    const shard = selectRoundShard(round, { index: 2, count: 2 });
    expect(shard.empty).toEqual([]);
    expect(shard.round.prompts).toEqual([]);
    expect(shard.round.scenarios?.map((scenario) => scenario.prompts.length)).toEqual([2, 1]);
  });

  it("names bench's prompts in a round without scenarios", () => {
    const { scenarios: _scenarios, ...round } = roundWith([{ name: "chat", prompts: prompts("c", 1) }]);
    expect(selectRoundShard(round, { index: 5, count: 5 }).empty).toEqual([{ scenario: null, total: 4 }]);
  });
});
