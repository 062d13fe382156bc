import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fingerprintRound } from "../../src/config/fingerprint-round.js";
import { loadRound, parseRoundConfig } from "../../src/config/load-round-config.js";
import { selectRoundShard } from "../../src/shard/select-round-shard.js";
import { ConfigError } from "../../src/vocabulary/config-error.js";
import { makeTempDir } from "../support/make-temp-dir.js";

const base = {
  engine: "sglang",
  runtime: "process",
  port: 30000,
  baseline: { command: ["serve"] },
  bench: { prompts: "prompts.jsonl", maxTokens: 256, requestIntervalMs: 250, contextLimit: 4096, tolerance: 0.9, runs: 4 },
  gate: { minRoundScore: 1 },
};

function messageFor(input: unknown): string {
  try {
    parseRoundConfig(input, "round.yml");
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error("expected the config to be refused");
}

describe("quality: and gate.answers in the round config", () => {
  it("fills the defaults: the number scorer, 512 tokens, 16 questions in flight", () => {
    const config = parseRoundConfig({
      ...base,
      quality: { questions: "quality/gsm8k.jsonl" },
      gate: { minRoundScore: 1, answers: "quality" },
    });
    expect(config.quality).toEqual({ questions: "quality/gsm8k.jsonl", scorer: "number", maxTokens: 512, concurrency: 16 });
    expect(config.gate.answers).toBe("quality");
    expect(config.gate.quality).toBeUndefined();
    expect(parseRoundConfig({ ...base, quality: { questions: "q.jsonl", scorer: { regex: "Final: (\\S+)" } } }).quality?.scorer).toEqual({
      regex: "Final: (\\S+)",
    });
  });

  it("leaves a config without quality: hashed as before it existed", () => {
    const without = parseRoundConfig(base);
    expect(without).not.toHaveProperty("quality");
    expect(without.gate).not.toHaveProperty("answers");
    const withQuality = parseRoundConfig({ ...base, quality: { questions: "q.jsonl" } });
    expect(fingerprintRound(withQuality, "/work", []).configHash).not.toBe(fingerprintRound(without, "/work", []).configHash);
    // The set's path is hashed relative to the config's folder, so runners with other workspaces agree.
    const at = (dir: string) => parseRoundConfig({ ...base, quality: { questions: `${dir}/q.jsonl` } });
    expect(fingerprintRound(at("/a/round"), "/a/round", []).configHash).toBe(fingerprintRound(at("/b/round"), "/b/round", []).configHash);
  });

  it("refuses gate.answers: quality without a question set, in the round's gate or a scenario's", () => {
    expect(messageFor({ ...base, gate: { minRoundScore: 1, answers: "quality" } })).toContain(
      "gate.answers: expected quality: in the round config (a question set both engines answer) with gate.answers: quality",
    );
    expect(messageFor({ ...base, scenarios: [{ name: "chat", gate: { answers: "quality" } }] })).toContain(
      "scenarios[0].gate.answers: expected quality: in the round config",
    );
  });

  it("names every wrong quality field", () => {
    const message = messageFor({
      ...base,
      gate: { minRoundScore: 1, answers: "judged", quality: { maxDrop: 2 } },
      quality: { questions: "", scorer: "numbers", maxTokens: 0, concurrency: "many" },
    });
    for (const field of [
      "gate.answers",
      "gate.quality.maxDrop",
      "quality.questions",
      "quality.scorer",
      "quality.maxTokens",
      "quality.concurrency",
    ])
      expect(message).toContain(`${field}:`);
    expect(messageFor({ ...base, quality: { questions: "q.jsonl", scorer: { regex: "(unclosed" } } })).toContain(
      "expected a regular expression that compiles",
    );
    expect(messageFor({ ...base, quality: { questions: "q.jsonl", maxTokens: 8192 } })).toContain(
      "quality.maxTokens: expected at most bench.contextLimit (4096)",
    );
  });
});

describe("the question set, loaded with the round", () => {
  async function writeRound(questions: string, quality: Record<string, unknown> = {}): Promise<string> {
    const dir = await makeTempDir("speedgate-quality-");
    await writeFile(join(dir, "prompts.jsonl"), '{"id": "p1", "prompt": "hello"}\n{"id": "p2", "prompt": "hi"}');
    await writeFile(join(dir, "questions.jsonl"), questions);
    const config = { ...base, quality: { questions: "questions.jsonl", ...quality } };
    await writeFile(join(dir, "round.yml"), JSON.stringify(config));
    return join(dir, "round.yml");
  }
  const lines = (...answers: string[]) =>
    answers.map((answer, index) => JSON.stringify({ prompt: `question ${index}`, answer })).join("\n");

  it("is read, hashed and dealt to shards like prompts, its hash the whole set's", async () => {
    const round = await loadRound(await writeRound(lines("#### 1", "2", "3", "4")));
    expect(round.quality?.questions.map((question) => question.id)).toEqual(["q1", "q2", "q3", "q4"]);
    expect(round.quality?.hash).toMatch(/^[0-9a-f]{64}$/);
    const shard = selectRoundShard(round, { index: 2, count: 2 }).round;
    expect(shard.quality?.questions.map((question) => question.id)).toEqual(["q2", "q4"]);
    expect(shard.quality?.hash).toBe(round.quality?.hash);
  });

  it("refuses, before anything starts, a reference the scorer could never grade, naming the question", async () => {
    await expect(loadRound(await writeRound(lines("4", "four")))).rejects.toThrow(
      'question "q2": expected a reference answer with a number in it for quality.scorer number, got "four"',
    );
    await expect(loadRound(await writeRound(lines("B", "Paris"), { scorer: "choice" }))).rejects.toThrow(
      'question "q2": expected a reference answer that is one option letter',
    );
  });

  it("names a missing question set as a path of the config", async () => {
    const path = await writeRound(lines("1"), { questions: "no-such.jsonl" });
    await expect(loadRound(path)).rejects.toThrow(/quality\.questions: expected an existing file \(the JSONL question set/);
  });
});
