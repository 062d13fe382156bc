import { describe, expect, it } from "vitest";
import { loadRound } from "../../src/config/load-round-config.js";
import { silentLogger } from "../../src/logger.js";
import { type RoundProgressEvent, runRound } from "../../src/round/run-round.js";
import { type Scorecard, scorecardSchema } from "../../src/scorecard/scorecard-schema.js";
import { rescoreCard } from "../../src/scorecard/rescore-card.js";
import { runCalibration } from "../../src/round/run-calibration.js";
import { recordedGateSettings } from "../../src/scorecard/rescore-scenario-card.js";
import type { SimProfileInput } from "../../src/sim-engine/sim-profile.js";
import { DEFAULT_RUN_BUDGET } from "../../src/scoring/sequential-design.js";
import { makeTempDir } from "../support/make-temp-dir.js";
import { SimRuntime } from "../../harness/sim-engine/sim-runtime.js";
import { type SimRoundOptions, makePromptSet, writeSimRound } from "../../harness/sim-engine/write-sim-round.js";

/*
 * Rounds with a run budget against the reference engines in this process. Every difference is large
 * enough that a loaded machine cannot close it: the clear speedup is 10× (a first start slowed by half
 * by a cold process leaves its statistic well above the first look's bound), the slower candidate is at
 * 0.6×, far under the 1.1× the futility bound rules out. The file's first round is the cut one, whose
 * outcome does not depend on timing, so no timed round pays for the process's cold start.
 */
const PROMPTS = makePromptSet("p", 12);
const OTHER = makePromptSet("q", 12);
const BASELINE: SimProfileInput = { defaults: { ttftMs: 5, itlMs: 20, outputTokens: 12 } };
const FASTER: SimProfileInput = { defaults: { ttftMs: 0.5, itlMs: 2, outputTokens: 12 } };
const SLOWER: SimProfileInput = { defaults: { ttftMs: 8, itlMs: 33, outputTokens: 12 } };

type BenchRuns = NonNullable<SimRoundOptions["bench"]>["runs"];

async function writeBudgetRound(options: { runs?: unknown; scenarios?: unknown[] }): Promise<string> {
  // Run in process (SimRuntime), so the port is never bound. runs: undefined is left out of the YAML: the default budget applies.
  return await writeSimRound(await makeTempDir("speedgate-budget-"), {
    port: 1,
    prompts: { "prompts.jsonl": PROMPTS, "other.jsonl": OTHER },
    bench: { requestIntervalMs: 0, runs: options.runs as BenchRuns },
    ...(options.scenarios ? { scenarios: options.scenarios as SimRoundOptions["scenarios"] } : {}),
  });
}

async function runBudgetRound(options: {
  baseline?: SimProfileInput;
  candidate: SimProfileInput;
  runs?: unknown;
  scenarios?: unknown[];
}): Promise<{ card: Scorecard; runtime: SimRuntime; events: RoundProgressEvent[] }> {
  const path = await writeBudgetRound(options);
  const round = await loadRound(path);
  const runtime = new SimRuntime({ baseline: options.baseline ?? BASELINE, candidate: options.candidate }, [...PROMPTS, ...OTHER]);
  const events: RoundProgressEvent[] = [];
  const card = await runRound({
    round,
    logger: silentLogger,
    signal: new AbortController().signal,
    runtime,
    onProgress: (e) => events.push(e),
  });
  return { card, runtime, events };
}

const starts = (runtime: SimRuntime): number => runtime.calls.filter((call) => call.startsWith("start ")).length;

describe("a round with a run budget", () => {
  it("stops at once when the candidate cuts answers short: more runs do not fix a cut", async () => {
    const cutting: SimProfileInput = {
      ...FASTER,
      faults: { stopEarly: PROMPTS.slice(0, 4).map((prompt) => prompt.id), stopEarlyFraction: 0.5 },
    };
    const { card, runtime } = await runBudgetRound({ candidate: cutting });
    expect(starts(runtime)).toBe(4);
    expect(card.sequential?.stop).toBe("integrity");
    expect(card.gate.passed).toBe(false);
    expect(card.gate.reasons.some((reason) => reason.includes("were not scored"))).toBe(true);
  });

  it("decides a clear speedup at a look and starts no engine after it (the default budget)", async () => {
    // On a quiet runner the first pair decides it (test/sim-engine/study-sequential-gate.test.ts holds that 40 rounds of 40 do);
    // this in-process round shares the machine's CPUs with whatever else runs, so it asserts the stop, not which look made it.
    const { card, runtime } = await runBudgetRound({ candidate: FASTER });
    expect(scorecardSchema.parse(card)).toBeTruthy();
    expect(card.settings.budget).toEqual(DEFAULT_RUN_BUDGET);
    expect(card.settings.runs).toBe(DEFAULT_RUN_BUDGET.max);
    expect(card.gate.use).toBe("sequential");
    const completed = card.runs.completed;
    expect(completed).toBeLessThan(DEFAULT_RUN_BUDGET.max);
    expect(completed % 2).toBe(0);
    expect(starts(runtime)).toBe(2 * completed);
    expect(card.sequential).toMatchObject({ decision: "pass", decidedAfter: completed, stop: "decided", spread: "starts" });
    expect(card.gate.passed).toBe(true);
    expect(card.gate.rule).toMatch(
      new RegExp(`^sequential test passed after ${completed} runs of each engine: lower bound \\d+\\.\\d+× ≥ 1\\.00×$`),
    );
    // The card's interval is the test's own bound at its last look, at the confidence its error leaves.
    expect(card.scoreInterval?.low).toBe(card.sequential?.looks.at(-1)?.low);
    expect(card.scoreInterval?.confidence).toBeCloseTo(0.92, 12);
  });

  it("rules out a slower candidate before the budget's end, and never passes it", async () => {
    const { card, runtime } = await runBudgetRound({ candidate: SLOWER, runs: { min: 2, max: 10 } });
    expect(card.sequential?.decision).toBe("fail");
    expect(card.sequential?.stop).toBe("ruled-out");
    // On a runner this quiet the first pair can already rule it out: the futility bound is as wide as the spread it sees.
    expect(card.runs.completed).toBeLessThan(10);
    expect(starts(runtime)).toBe(2 * card.runs.completed);
    expect(card.gate.passed).toBe(false);
    expect(card.gate.rule).toMatch(/a speedup of 1\.10× is ruled out after \d+ runs of each engine/);
  });

  it("re-derives the same decision from the card alone, as the app's re-gate and a merge do", async () => {
    const { card } = await runBudgetRound({ candidate: SLOWER, runs: { min: 2, max: 10 } });
    const again = rescoreCard(card, { gate: recordedGateSettings(card) });
    expect(again.sequential).toEqual(card.sequential);
    expect(again.gate).toEqual(card.gate);
    // Under a bar the round did not run for, the runs it took are the runs there are: undecided, not passed.
    const higher = rescoreCard(card, { gate: { ...recordedGateSettings(card), minRoundScore: 0.5 } });
    expect(higher.sequential?.decision).not.toBe("fail");
  });

  it("goes on while any scenario is undecided, serving only those in the later runs", async () => {
    // The candidate is 10× faster on the p prompts and 0.85× on the q prompts, and every engine start runs about 10% faster or slower
    // (seeded: the first two starts of each engine differ by 8% in the mean): the second scenario's futility bound after the first
    // pair, 7 standard errors up, is then at 1.5×, so it goes on, while the first passes there 28 standard errors up.
    const noise = { runVariance: 0.1, jitter: 0, seed: 2 };
    const mixed: SimProfileInput = {
      ...FASTER,
      noise,
      prompts: Object.fromEntries(OTHER.map((prompt) => [prompt.id, { ttftMs: 6, itlMs: 24 }])),
    };
    const { card, events } = await runBudgetRound({
      baseline: { ...BASELINE, noise },
      candidate: mixed,
      runs: { min: 2, max: 10 },
      scenarios: [{ name: "fast" }, { name: "slow", prompts: "other.jsonl" }],
    });
    const fast = card.scenarios?.find((scenario) => scenario.name === "fast")?.card;
    const slow = card.scenarios?.find((scenario) => scenario.name === "slow")?.card;
    // The fast scenario is decided at the first pair on a quiet runner; a loaded one may take another pair.
    const fastRuns = fast?.runs.completed ?? 0;
    expect(fast?.sequential).toMatchObject({ decision: "pass", decidedAfter: fastRuns, stop: "decided" });
    expect(["ruled-out", "budget"]).toContain(slow?.sequential?.stop);
    expect(slow?.runs.completed).toBeGreaterThan(fastRuns);
    const benchmarked = (scenario: string): Set<number> =>
      new Set(
        events.flatMap((event) =>
          event.type === "benchmark" && "scenario" in event && event.scenario === scenario && "run" in event ? [event.run as number] : [],
        ),
      );
    expect([...benchmarked("fast")]).toEqual(Array.from({ length: fastRuns }, (_, index) => index + 1));
    expect(benchmarked("slow").size).toBe(slow?.runs.completed);
    // The round fails: one scenario does not clear its bar.
    expect(card.gate.passed).toBe(false);
  });

  it("calibrates with A/A rounds of the budget's min, and decides from the calibration's spread when the round names it", async () => {
    const round = await loadRound(await writeBudgetRound({ runs: { min: 2, max: 8 } }));
    const file = await runCalibration({
      round,
      rounds: 5,
      logger: silentLogger,
      signal: new AbortController().signal,
      runId: "budget",
      runtimeFor: () => new SimRuntime({ baseline: BASELINE, candidate: BASELINE }, [...PROMPTS, ...OTHER]),
    });
    expect(file.settings.runs).toBe(2);
    expect(file.rounds.every((aa) => aa.runScores.length === 2)).toBe(true);
    const runtime = new SimRuntime({ baseline: BASELINE, candidate: FASTER }, [...PROMPTS, ...OTHER]);
    const card = await runRound({
      round: { ...round, calibration: file },
      logger: silentLogger,
      signal: new AbortController().signal,
      runtime,
    });
    // The fit does not hold the round to the A/A rounds' number of runs: the rule reads their spread, whatever their number.
    expect(card.gate.calibration?.problems).toEqual([]);
    expect(card.sequential).toMatchObject({ spread: "calibrated", decision: "pass", decidedAfter: 2 });
    expect(card.gate.passed).toBe(true);
  });

  it("keeps a number of runs to its meaning: bench.runs 2 runs twice and has no budget on its card", async () => {
    const { card, runtime } = await runBudgetRound({ candidate: FASTER, runs: 2 });
    expect(starts(runtime)).toBe(4);
    expect(card.settings.runs).toBe(2);
    expect(card.settings.budget).toBeUndefined();
    expect(card.sequential).toBeUndefined();
    expect(card.gate.use).toBe("interval-low");
  });
});
