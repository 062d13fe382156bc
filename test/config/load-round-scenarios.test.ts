import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { checkRound, loadRound } from "../../src/config/load-round-config.js";
import { ConfigError } from "../../src/vocabulary/config-error.js";
import { makeTempDir } from "../support/make-temp-dir.js";
import { TEST_TOKENIZER_PATH } from "../../harness/fixtures/tokenizer/generate-tokenizer.js";

/** benchPrompts: what bench.prompts says; null leaves the field out. */
const config = (scenarios: unknown[], benchPrompts: unknown = "chat.jsonl"): Record<string, unknown> => ({
  engine: "sglang",
  runtime: "process",
  port: 30000,
  baseline: { command: ["serve"] },
  bench: {
    ...(benchPrompts === null ? {} : { prompts: benchPrompts }),
    maxTokens: 64,
    requestIntervalMs: 250,
    contextLimit: 4096,
    tolerance: 0.9,
    tokenizer: { path: "tokenizer.json", from: "runner" },
  },
  gate: { minRoundScore: 1 },
  scenarios,
});

async function writeRound(scenarios: unknown[], files: Record<string, string> = {}, benchPrompts: unknown = "chat.jsonl"): Promise<string> {
  const dir = await makeTempDir("speedgate-scenarios-");
  await mkdir(join(dir, "prompts"));
  await writeFile(join(dir, "chat.jsonl"), '{"id":"c1","prompt":"hi"}\n{"id":"c2","prompt":"hello"}\n');
  await writeFile(join(dir, "tokenizer.json"), await readFile(TEST_TOKENIZER_PATH, "utf8"));
  for (const [name, content] of Object.entries(files)) await writeFile(join(dir, name), content);
  await writeFile(join(dir, "round.yml"), stringify(config(scenarios, benchPrompts)));
  return join(dir, "round.yml");
}

describe("loadRound with scenarios", () => {
  it(
    "loads each scenario's prompts (bench's, a file of its own relative to the config, or synthetic) with its merged settings and " +
      "fingerprint",
    async () => {
      const synthetic = { synthetic: { inputTokens: 12, outputTokens: 5, count: 3, seed: 7 } };
      const path = await writeRound(
        [
          { name: "chat-rate4" },
          { name: "long", prompts: "long.jsonl", concurrency: 2 },
          { name: "decode-c1", prompts: synthetic, concurrency: 1 },
          { name: "decode-c4", prompts: synthetic, concurrency: 4 },
        ],
        { "long.jsonl": '{"id":"l1","prompt":"a long one"}\n' },
      );
      const round = await loadRound(path);
      const scenarios = round.scenarios ?? [];
      expect(scenarios.map((scenario) => scenario.name)).toEqual(["chat-rate4", "long", "decode-c1", "decode-c4"]);
      expect(scenarios.map((scenario) => scenario.prompts.map((prompt) => prompt.id))).toEqual([
        ["c1", "c2"],
        ["l1"],
        ["synthetic-1", "synthetic-2", "synthetic-3"],
        ["synthetic-1", "synthetic-2", "synthetic-3"],
      ]);
      // One prompt source, built once: the two synthetic scenarios send the very same prompts.
      expect(scenarios[2]?.prompts).toBe(scenarios[3]?.prompts);
      expect(scenarios[1]?.config.bench).toMatchObject({ concurrency: 2, prompts: join(path, "..", "long.jsonl") });
      expect(scenarios[0]?.fingerprint).toEqual(round.fingerprint);
      expect(scenarios[1]?.fingerprint.configHash).toBe(round.fingerprint?.configHash);
      expect(scenarios[1]?.fingerprint.promptsHash).not.toBe(round.fingerprint?.promptsHash);
      expect(scenarios[2]?.fingerprint.promptsHash).toBe(scenarios[3]?.fingerprint.promptsHash);
    },
  );

  it("names the scenario whose prompts file is missing, before anything starts", async () => {
    const path = await writeRound([{ name: "long", prompts: "no-such.jsonl" }]);
    const error = await loadRound(path).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain(
      'scenarios[0].prompts: expected an existing file (scenario long\'s JSONL prompts), got "no-such.jsonl"',
    );
  });

  it("lets a check go on without a scenario's prompts that only the runner has", async () => {
    const path = await writeRound([{ name: "private", prompts: "/runner/only/prompts.jsonl" }]);
    const check = await checkRound(path);
    expect(check.round.scenarios?.[0]?.prompts).toEqual([]);
    expect(check.paths.find((entry) => entry.field === "scenarios[0].prompts")).toMatchObject({ onRunner: true });
  });

  it("hashes a config the same wherever its folder is, scenarios' prompt files included", async () => {
    const scenarios = [{ name: "long", prompts: "long.jsonl" }];
    const files = { "long.jsonl": '{"id":"l1","prompt":"a long one"}\n' };
    const first = await loadRound(await writeRound(scenarios, files));
    const second = await loadRound(await writeRound(scenarios, files));
    expect(first.fingerprint?.configHash).toBe(second.fingerprint?.configHash);
  });

  it(
    "loads a round whose bench names no prompts when every scenario " + "brings its own, and each scenario keeps its file as written",
    async () => {
      const synthetic = { synthetic: { inputTokens: 12, outputTokens: 5, count: 2, seed: 3 } };
      const path = await writeRound(
        [
          { name: "chat", prompts: "prompts/chat.jsonl" },
          { name: "decode-c1", prompts: synthetic, concurrency: 1 },
        ],
        { "prompts/chat.jsonl": '{"id":"p1","prompt":"a"}\n{"id":"p2","prompt":"b"}\n{"id":"p3","prompt":"c"}\n' },
        null,
      );
      const round = await loadRound(path);
      expect(round.config.bench.prompts).toBeUndefined();
      expect(round.prompts).toEqual([]);
      expect(round.scenarios?.map((scenario) => scenario.prompts.length)).toEqual([3, 2]);
      expect(round.scenarios?.map((scenario) => scenario.promptsSource)).toEqual(["prompts/chat.jsonl", undefined]);
      expect(round.scenarios?.[0]?.config.bench.prompts).toBe(join(path, "..", "prompts", "chat.jsonl"));
    },
  );

  it("names bench's file as written for a scenario that sends bench.prompts", async () => {
    const round = await loadRound(
      await writeRound([{ name: "inherits" }, { name: "own", prompts: "./long.jsonl" }], { "long.jsonl": '{"id":"l1","prompt":"x"}\n' }),
    );
    expect(round.scenarios?.map((scenario) => scenario.promptsSource)).toEqual(["chat.jsonl", "./long.jsonl"]);
  });

  it("neither checks nor reads bench.prompts that no scenario sends", async () => {
    const path = await writeRound(
      [{ name: "own", prompts: "long.jsonl" }],
      { "long.jsonl": '{"id":"l1","prompt":"x"}\n', "broken.jsonl": "not json\n" },
      "broken.jsonl",
    );
    const round = await loadRound(path);
    expect(round.prompts).toEqual([]);
    expect(round.scenarios?.[0]?.prompts.map((prompt) => prompt.id)).toEqual(["l1"]);
    const check = await checkRound(
      await writeRound([{ name: "own", prompts: "long.jsonl" }], { "long.jsonl": '{"id":"l1","prompt":"x"}\n' }, "no-such.jsonl"),
    );
    expect(check.paths.map((entry) => entry.field)).not.toContain("bench.prompts");
  });

  it("reads bench.prompts as before when one scenario sends it", async () => {
    const path = await writeRound(
      [{ name: "inherits" }, { name: "own", prompts: "long.jsonl" }],
      { "long.jsonl": '{"id":"l1","prompt":"x"}\n', "broken.jsonl": "not json\n" },
      "broken.jsonl",
    );
    const error = await loadRound(path).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain('broken.jsonl: line 1: expected a JSON object, got "not json"');
  });
});
