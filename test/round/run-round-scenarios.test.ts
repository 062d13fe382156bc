import { describe, expect, it } from "vitest";
import { type LoadedRound, loadRound } from "../../src/config/load-round-config.js";
import { silentLogger } from "../../src/logger.js";
import { type RoundProgressEvent, runRound } from "../../src/round/run-round.js";
import { type Scorecard, type TimeSpent, scorecardSchema } from "../../src/scorecard/scorecard-schema.js";
import type { SimProfileInput } from "../../src/sim-engine/sim-profile.js";
import { judgeScenario } from "../../src/scoring/combine-scenario-gates.js";
import { readScenarioGate } from "../../src/scorecard/read-scenario-gate.js";
import { rescoreCard } from "../../src/scorecard/rescore-card.js";
import { renderMarkdown } from "../../src/scorecard/render/render-markdown.js";
import { makeTempDir } from "../support/make-temp-dir.js";
import { SIM_RUNTIME_ROUND, SimRuntime } from "../../harness/sim-engine/sim-runtime.js";
import { type SimRoundOptions, makePromptSet, writeSimRound } from "../../harness/sim-engine/write-sim-round.js";

const DECODE = makePromptSet("d", 7);
const CHAT = makePromptSet("u", 5);
const BATCH = makePromptSet("b", 8);

/*
 * The candidate decodes eight times as fast alone (itlMs 5 against 40) but pays for every other stream
 * in its batch (batchCost 4: 145 ms a step with 8 streams against the baseline's 40), so it is faster
 * at concurrency 1 and slower at 8. The chat prompts are slower on two, as fast on one and faster on
 * two, so their interval spans 1× whatever the machine's load. No noise, and every difference is
 * large enough that a loaded machine's late timers cannot close it: at 4× and 2.7× (itlMs 20, batchCost
 * 2), a suite run with two CPU-bound processes beside it slowed one engine's whole run enough that both
 * intervals held 1×.
 *
 * Three runs, not two, and seven decode prompts, not five: with two runs the interval pushes each run's
 * level out by t(1)'s 12.7 (about 9× the run's own shift), so a loaded CI machine that slowed one engine's
 * run by half put decode-c1's 7× interval over 1×; three runs push by 2.7×. With five prompts one answer
 * stalled for a second is the bootstrap median's low end; with seven it takes three.
 */
const BASELINE: SimProfileInput = { defaults: { ttftMs: 5, itlMs: 40, outputTokens: 8 } };
const CANDIDATE: SimProfileInput = {
  defaults: { ttftMs: 5, itlMs: 5, outputTokens: 8 },
  batchCost: 4,
  prompts: { u1: { itlMs: 80 }, u2: { itlMs: 80 }, u3: { itlMs: 40 } },
};

/** A round folder with the three prompt sets; `scenarios` null leaves the field out. */
async function writeRound(scenarios: SimRoundOptions["scenarios"] | null, bench: SimRoundOptions["bench"] = {}): Promise<string> {
  return await writeSimRound(await makeTempDir("speedgate-scenarios-"), {
    ...SIM_RUNTIME_ROUND,
    prompts: { "decode.jsonl": DECODE, "chat.jsonl": CHAT, "batch.jsonl": BATCH },
    bench: { requestIntervalMs: 0, runs: 3, warmupRequests: 1, ...bench },
    gate: { minRoundScore: 0.4, minPrompts: 1, maxRegression: 0.9 },
    ...(scenarios ? { scenarios } : {}),
  });
}

const THREE_SCENARIOS = [
  { name: "decode-c1", concurrency: 1 },
  // A looser bar of its own, and one run of the round's three.
  { name: "chat-c1", prompts: "chat.jsonl", concurrency: 1, runs: 1, gate: { minRoundScore: 0.25 } },
  { name: "batch-c8", prompts: "batch.jsonl", concurrency: 8, warmupRequests: 2 },
];

async function runScenarioRound(
  round: LoadedRound,
  profiles = { baseline: BASELINE, candidate: CANDIDATE },
): Promise<{ card: Scorecard; events: RoundProgressEvent[]; runtime: SimRuntime }> {
  const runtime = new SimRuntime(profiles, [...DECODE, ...CHAT, ...BATCH]);
  const events: RoundProgressEvent[] = [];
  const card = await runRound({
    round,
    logger: silentLogger,
    signal: new AbortController().signal,
    runtime,
    onProgress: (event) => events.push(event),
  });
  return { card, events, runtime };
}

/** Each scenario's score, interval and prompt scores, for the message of an outcome that was not as planned. */
function describeScores(scenarios: readonly { name: string; card: Scorecard }[]): string {
  const format = (value: number | null | undefined): string => (typeof value === "number" ? value.toFixed(2) : "-");
  const describeRunRatio = (run: { baselineMs: number | null; candidateMs: number | null }): string =>
    format(run.baselineMs !== null && run.candidateMs ? run.baselineMs / run.candidateMs : null);
  return scenarios
    .map(
      ({ name, card }) =>
        `${name}: ${format(card.roundScore)} [${format(card.scoreInterval?.low)}, ${format(card.scoreInterval?.high)}] prompts ` +
        card.prompts.map((prompt) => `${prompt.id} ${prompt.status} ${prompt.runs.map(describeRunRatio).join("/")}`).join(", "),
    )
    .join("\n");
}

/** What timeSpent must be whatever the machine's speed: every start counted, and no part longer than the whole. */
function expectAccountedTime(spent: TimeSpent | null | undefined, startsPerEngine: number): void {
  if (!spent) throw new Error("expected the card to say where the round's time went");
  let parts = spent.prepareMs;
  for (const engine of [spent.baseline, spent.candidate]) {
    expect(engine.starts).toBe(startsPerEngine);
    for (const part of [engine.startMs, engine.warmupMs, engine.benchmarkMs, engine.stopMs]) expect(part).toBeGreaterThanOrEqual(0);
    parts += engine.startMs + engine.warmupMs + engine.benchmarkMs + engine.stopMs;
  }
  expect(parts).toBeLessThanOrEqual(spent.totalMs);
}

describe("runRound with scenarios", () => {
  it(
    "serves every scenario on one engine start per run and gates on " + "each: improved, unchanged and regressed under concurrency",
    async () => {
      const { card, events, runtime } = await runScenarioRound(await loadRound(await writeRound(THREE_SCENARIOS)));
      expect(scorecardSchema.parse(card)).toBeTruthy();
      for (const role of ["baseline", "candidate"] as const) {
        expect(events.filter((event) => event.type === "starting" && event.role === role)).toHaveLength(3);
        expect(runtime.calls.filter((call) => call === `start ${role}`)).toHaveLength(3);
      }
      // Within one start, the scenarios are served in config order.
      const served = events.flatMap((event) =>
        event.type === "benchmark" && event.role === "baseline" && event.run === 1 && event.done === 0 ? [event.scenario] : [],
      );
      expect(served).toEqual(["decode-c1", "chat-c1", "batch-c8"]);

      const scenarios = card.scenarios ?? [];
      expect(scenarios.map((scenario) => scenario.name)).toEqual(["decode-c1", "chat-c1", "batch-c8"]);
      const outcomes = scenarios.map((scenario) => judgeScenario(readScenarioGate(scenario), { maxRegression: 0.9 }).outcome);
      expect(outcomes, describeScores(scenarios)).toEqual(["improved", "unchanged", "regressed"]);
      expect(scenarios.map((scenario) => scenario.card.promptsTotal)).toEqual([7, 5, 8]);
      // chat-c1 ran in the first run only; the others in all three.
      expect(scenarios.map((scenario) => scenario.card.settings.runs)).toEqual([3, 1, 3]);
      expect(scenarios[1]?.card.prompts.every((prompt) => prompt.runs.length === 1)).toBe(true);
      expect(scenarios[2]?.card.settings.concurrency).toBe(8);
      expect(scenarios[1]?.card.gate.minRoundScore).toBe(0.25);
      // Each scenario's card is re-derivable alone, as a card of a round without scenarios is.
      for (const { card: own } of scenarios) {
        const { minRoundScore, use, maxUnscored, minPrompts, minAgreement, maxUnexplained } = own.gate;
        const again = rescoreCard(own, { gate: { minRoundScore, use, maxUnscored, minPrompts, minAgreement, maxUnexplained } });
        expect({ score: again.roundScore, interval: again.scoreInterval, passed: again.gate.passed }).toEqual({
          score: own.roundScore,
          interval: own.scoreInterval,
          passed: own.gate.passed,
        });
      }
      // Each scenario is fingerprinted by its own prompts; the config is the round's.
      expect(new Set(scenarios.map((scenario) => scenario.card.provenance.promptsHash)).size).toBe(3);
      expect(new Set(scenarios.map((scenario) => scenario.card.provenance.configHash)).size).toBe(1);

      // The headline is the first scenario; the gate is the round's, failed by the regression.
      expect(card.roundScore).toBe(scenarios[0]?.card.roundScore);
      expect(card.gate.passed).toBe(false);
      expect(card.gate.maxRegression).toBe(0.9);
      expect(card.gate.reason).toContain("2 of 3 scenarios passed");
      expect(card.gate.reason).toContain("improved: decode-c1");
      expect(card.gate.reason).toContain("regressed: batch-c8");
      expect(card.gate.reason).toContain("failed: batch-c8");
      expect(card.gate.reasons.every((reason) => reason.startsWith("batch-c8: "))).toBe(true);
      expectAccountedTime(card.timeSpent, 3);
    },
  );

  it("names the scenario an engine died in, and fails every scenario of the round", async () => {
    // 7 decode prompts (after any warm-up), then the 5 of the chat scenario: the candidate dies on its 10th request, inside chat-c1.
    const dying: SimProfileInput = { ...BASELINE, faults: { dieAfterRequests: 10 } };
    const round = await loadRound(await writeRound(THREE_SCENARIOS, { runs: 1, warmupRequests: undefined }));
    const { card, events, runtime } = await runScenarioRound(round, { baseline: BASELINE, candidate: dying });
    expect(card.failure).toMatchObject({ engine: "candidate", stage: "benchmark", scenario: "chat-c1" });
    expect(events.find((event) => event.type === "failed")).toMatchObject({ scenario: "chat-c1" });
    expect(card.scenarios?.every((scenario) => !scenario.card.gate.passed)).toBe(true);
    expect(card.gate.passed).toBe(false);
    expect(runtime.calls.filter((call) => call.startsWith("start "))).toEqual(["start baseline", "start candidate"]);
    expect(runtime.calls.at(-1)).toBe("dispose");
  });

  it("keeps a round without scenarios as it was, with where its time went", async () => {
    const round = await loadRound(await writeRound(null));
    expect(round.scenarios).toBeUndefined();
    expect(round.config).not.toHaveProperty("scenarios");
    const { card, events } = await runScenarioRound(round);
    expect(scorecardSchema.parse(card)).toBeTruthy();
    expect(card).not.toHaveProperty("scenarios");
    expect(card.failure).toBeNull();
    expect(card.promptsTotal).toBe(7);
    expect(card.gate.reason).not.toContain("scenarios");
    expect(events.some((event) => event.type === "benchmark" && "scenario" in event)).toBe(false);
    expectAccountedTime(card.timeSpent, 3);
  });

  it("runs a round whose bench names no prompts, every scenario sending its own, and each card names its file", async () => {
    // The bench names no prompts (each scenario sends its own); one run, the default warm-up.
    const bench = { prompts: undefined, runs: 1, warmupRequests: undefined };
    const scenarios = [
      { name: "chat-c1", prompts: "chat.jsonl", concurrency: 1 },
      { name: "batch-c8", prompts: "./batch.jsonl", concurrency: 8 },
    ];
    const round = await loadRound(await writeRound(scenarios, bench));
    expect(round.prompts).toEqual([]);
    const { card } = await runScenarioRound(round);
    expect(scorecardSchema.parse(card)).toBeTruthy();
    expect(card.failure).toBeNull();
    const own = card.scenarios ?? [];
    expect(own.map((scenario) => scenario.card.promptsTotal)).toEqual([5, 8]);
    expect(own.map((scenario) => scenario.card.settings.promptsSource)).toEqual(["chat.jsonl", "./batch.jsonl"]);
    // Rescored from the card alone, a scenario's card keeps the file it names.
    const rescored = own.map(({ card: scenarioCard }) => {
      const { minRoundScore, use, maxUnscored, minPrompts, minAgreement, maxUnexplained } = scenarioCard.gate;
      return rescoreCard(scenarioCard, { gate: { minRoundScore, use, maxUnscored, minPrompts, minAgreement, maxUnexplained } });
    });
    expect(rescored.map((again) => again.settings.promptsSource)).toEqual(["chat.jsonl", "./batch.jsonl"]);
    const markdown = renderMarkdown(card);
    expect(markdown).toContain("| **chat-c1** | target ≥ 0.40× | concurrency 1 | 5 from `chat.jsonl` |");
    expect(markdown).toContain("| **batch-c8** | target ≥ 0.40× | concurrency 8 | 8 from `./batch.jsonl` |");
  });
});
