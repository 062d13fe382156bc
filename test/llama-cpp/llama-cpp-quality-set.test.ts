import { describe, expect, it } from "vitest";
import { parseRoundConfig } from "../../src/config/load-round-config.js";
import { readQuestionSet } from "../../src/config/read-question-set.js";
import { createRecordingLogger } from "../../src/logger.js";
import { runRound } from "../../src/round/run-round.js";
import { renderMarkdown } from "../../src/scorecard/render/render-markdown.js";
import { rescoreScenarioCard } from "../../src/scorecard/rescore-scenario-card.js";
import { getFreePort } from "../support/get-free-port.js";
import { llamaCppTestContext } from "../support/llama-cpp/llama-cpp-test-context.js";
import { QWEN3_TOKENIZER, llamaServerCommand, makeLlamaCppRound } from "../../harness/llama-cpp/make-llama-cpp-round.js";
import { makeTempDir } from "../support/make-temp-dir.js";

/*
 * The quality set on llama.cpp's real CPU server (../shared/engines/llama-cpp; skipped with a notice
 * without it): 4 slots and every question in flight with three others, the same server in both seats,
 * the shipped arithmetic sample asked in both runs of each engine. The tiny random-weight model writes
 * words and never a number, so its accuracy is meaningless (0 of 32); what is tested is the mechanics:
 * every question asked of both engines in every run, graded, kept per run on the card, judged, shown,
 * and judged the same again from the card alone.
 */

const context = llamaCppTestContext();
const QUESTIONS = new URL("../../examples/quality/arithmetic.jsonl", import.meta.url).pathname;

describe.skipIf(!context)("the quality set on llama.cpp's server (real engine, 4 slots)", () => {
  it("asks both engines every question in every run, after the bench, and judges the card's own outcomes", async () => {
    const { server, model } = context ?? { server: "", model: "" };
    const dir = await makeTempDir("speedgate-llama-quality-");
    const round = makeLlamaCppRound({
      runtime: "process",
      port: await getFreePort(),
      dir,
      baseline: { command: llamaServerCommand(server, model, ["-np", "4"]) },
      bench: { maxTokens: 16, runs: 2, tokenizer: { path: QWEN3_TOKENIZER, from: "runner" } },
    });
    const config = parseRoundConfig({
      ...round.config,
      gate: { ...round.config.gate, use: "round-score", answers: "quality" },
      quality: { questions: QUESTIONS, scorer: "number", maxTokens: 24, concurrency: 4 },
    });
    const quality = config.quality ? await readQuestionSet(config.quality) : undefined;
    const card = await runRound({
      round: { ...round, config, ...(quality ? { quality } : {}) },
      logger: createRecordingLogger(),
      signal: new AbortController().signal,
      runId: `llama-quality-${Date.now().toString(36)}`,
    });
    expect(card.failure, JSON.stringify(card.failure)).toBeNull();
    const questions = card.quality?.questions ?? [];
    expect(questions).toHaveLength(32);
    // Every question asked of each engine in both runs, and graded: none is left unasked.
    for (const question of questions) {
      expect(question.baseline.every((outcome) => typeof outcome === "boolean")).toBe(true);
      expect(question.candidate.every((outcome) => typeof outcome === "boolean")).toBe(true);
      expect(question.baseline).toHaveLength(2);
    }
    const judgement = card.quality?.judgement;
    expect(judgement?.compared).toBe(32);
    // The same server in both seats, and a model that writes no digits: no drop to find, and none found.
    expect(judgement?.dropped).toBe(false);
    expect(card.gate.reasons.some((reason) => reason.startsWith("quality dropped"))).toBe(false);
    // Judged by the question set, the answers llama.cpp's batches vary never fail the round by themselves.
    expect(card.gate.reasons.some((reason) => reason.includes("none the baseline gave"))).toBe(false);
    expect(card.timeSpent?.baseline.qualityMs).toBeGreaterThan(0);
    expect(card.timeSpent?.candidate.qualityMs).toBeGreaterThan(0);
    expect(renderMarkdown(card)).toMatch(/\| Quality \| ✅ accuracy \d+\/32 → \d+\/32, /);
    expect(rescoreScenarioCard(card).quality?.judgement).toEqual(judgement);
  }, 300_000);
});
