import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { loadRound } from "../../src/config/load-round-config.js";
import { createRecordingLogger } from "../../src/logger.js";
import { runRound } from "../../src/round/run-round.js";
import { detectQueueBound } from "../../src/scorecard/detect-queue-bound.js";
import { renderMarkdown } from "../../src/scorecard/render/render-markdown.js";
import { runCli } from "../cli/support/sim-round.js";
import { getFreePort } from "../support/get-free-port.js";
import { llamaCppTestContext } from "../support/llama-cpp/llama-cpp-test-context.js";
import { QWEN3_TOKENIZER } from "../../harness/llama-cpp/make-llama-cpp-round.js";
import { makeTempDir } from "../support/make-temp-dir.js";
import { concatPatterns } from "../support/concat-patterns.js";

/*
 * The shipped examples/rounds/llama-cpp-process.yaml, as written except for what is this machine's
 * (where the server and the model are, the tokenizer) and the round's length (2 shared cores): its
 * command, {host} included, its health check and its runtime run llama.cpp's real CPU server.
 */

const context = llamaCppTestContext();
const EXAMPLE = new URL("../../examples/rounds/llama-cpp-process.yaml", import.meta.url).pathname;
const PROMPTS = new URL("../../examples/rounds/prompts.jsonl", import.meta.url).pathname;

interface ExampleConfig {
  port: number;
  baseline: { cwd: string; command: string[] };
  candidate: Record<string, unknown>;
  bench: Record<string, unknown>;
  gate: Record<string, unknown>;
}

/** The value after a flag in a command, replaced. */
function withFlag(command: readonly string[], flag: string, value: string): string[] {
  const at = command.indexOf(flag);
  if (at < 0) throw new Error(`the example's command has no ${flag}`);
  return command.map((argument, index) => (index === at + 1 ? value : argument));
}

describe.skipIf(!context)("examples/rounds/llama-cpp-process.yaml against llama.cpp's CPU server (real engine)", () => {
  it(
    "runs a real round (both engines start where the config says and listen on the {host} it fills), and names a queue-bound one on " +
      "the card and in calibrate",
    async () => {
      const { dir, model } = context ?? { dir: "", model: "" };
      const config = parse(await readFile(EXAMPLE, "utf8")) as ExampleConfig;
      expect(config.baseline.command).toEqual(expect.arrayContaining(["--host", "{host}"]));
      const roundDir = await makeTempDir("speedgate-llama-example-");
      const prompts = (await readFile(PROMPTS, "utf8"))
        .split("\n")
        .filter((line) => line.trim() !== "")
        .slice(0, 6);
      await writeFile(join(roundDir, "prompts.jsonl"), `${prompts.join("\n")}\n`);
      // The server's folder and model on this machine; one thread, since the machine's 2 cores are shared.
      config.port = await getFreePort();
      config.baseline.cwd = dir;
      config.baseline.command = withFlag(withFlag(config.baseline.command, "-m", model), "-t", "1");
      // No source to patch here: without a patch the candidate is the baseline, run again.
      delete config.candidate.sourceDir;
      config.candidate.postPatch = [];
      config.bench = {
        ...config.bench,
        tokenizer: { path: QWEN3_TOKENIZER, from: "runner" },
        maxTokens: 16,
        requestIntervalMs: 200,
        warmupRequests: 1,
        runs: 1,
      };
      config.gate = { ...config.gate, minPrompts: 6, use: "round-score" };
      const configPath = join(roundDir, "round.yaml");
      await writeFile(configPath, stringify(config));

      const round = await loadRound(configPath);
      const logger = createRecordingLogger();
      const card = await runRound({
        round,
        logger,
        signal: new AbortController().signal,
        runId: `llama-example-${Date.now().toString(36)}`,
      });
      expect(card.failure, JSON.stringify(card.failure)).toBeNull();
      expect(card.promptsScored).toBe(6);
      expect(card.tokenCountsEstimated).toBe(false);
      expect(card.engineTimes?.source).toBe("llama.cpp timings");
      expect(card.roundScore).toBeGreaterThan(0);

      // All at once into one slot: each request waits for those before it, which llama.cpp's own prompt time leaves out.
      await writeFile(
        configPath,
        stringify({
          ...config,
          baseline: { ...config.baseline, command: withFlag(config.baseline.command, "-np", "1") },
          bench: { ...config.bench, requestIntervalMs: 0 },
        }),
      );
      const queued = await runRound({
        round: await loadRound(configPath),
        logger,
        signal: new AbortController().signal,
        runId: `llama-example-${Date.now().toString(36)}`,
      });
      expect(queued.failure, JSON.stringify(queued.failure)).toBeNull();
      expect(
        detectQueueBound(queued)?.why,
        JSON.stringify({ metrics: queued.metrics?.baseline.ttftMs, times: queued.engineTimes }),
      ).toMatch(/of which its own prompt processing was .*% was waiting in its queue$/);
      expect(renderMarkdown(queued)).toMatch(
        /> \*\*Queue-bound round\*\*: .* set `bench\.requestIntervalMs` to at least [\d,]+ ms \(it is 0 ms\)/,
      );

      // calibrate names it too: a floor measured on a queue is the queue's.
      const calibrated = await runCli(["calibrate", "--config", configPath, "--runs", "5", "--out", join(roundDir, "calibration.json")]);
      expect(calibrated.code, calibrated.logger.lines.map((line) => line.message).join("\n")).toBe(0);
      expect(calibrated.stdout).toMatch(
        concatPatterns(
          /warning: [1-5] of 5 A\/A rounds were queue-bound \(in the first, the baseline's median time to first token was .*\): this /,
          /floor measures how the baseline's queue drains, not its speed; set bench\.requestIntervalMs to at least/,
        ),
      );
    },
    300_000,
  );
});
