import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type CalibrationFile, calibrationFileSchema } from "../../src/calibration/calibration-schema.js";
import { describeMissingScenario } from "../../src/calibration/fit-calibration.js";
import { describeCalibration } from "../../src/cli/commands/calibrate-command.js";
import { regateScorecard } from "../../src/github/regate-scorecard.js";
import { calibrationSettingsOf } from "../../src/config/calibration-settings.js";
import { loadRound } from "../../src/config/load-round-config.js";
import { silentLogger } from "../../src/logger.js";
import { CalibrationRoundError, runCalibration } from "../../src/round/run-calibration.js";
import { runRound } from "../../src/round/run-round.js";
import { rescoreScenarioCard } from "../../src/scorecard/rescore-scenario-card.js";
import { type Scorecard, scorecardSchema } from "../../src/scorecard/scorecard-schema.js";
import type { SimProfileInput } from "../../src/sim-engine/sim-profile.js";
import { MIN_CALIBRATION_ROUNDS } from "../../src/scoring/noise-floor.js";
import { makeTempDir } from "../support/make-temp-dir.js";
import { SIM_RUNTIME_ROUND, SimRuntime } from "../../harness/sim-engine/sim-runtime.js";
import { type SimRoundOptions, makePromptSet, writeSimRound } from "../../harness/sim-engine/write-sim-round.js";

/*
 * `speedgate calibrate` on a round with scenarios, on in-process reference engines: one A/A study per
 * scenario from the same A/A rounds, and rounds that gate each scenario on the study of its name.
 * Nothing here depends on how fast the machine is: only names, counts, settings and problems.
 */

const DECODE = makePromptSet("d", 5);
const CHAT = makePromptSet("u", 4);
const ENGINE: SimProfileInput = { defaults: { ttftMs: 2, itlMs: 2, outputTokens: 6 } };
const FASTER: SimProfileInput = { defaults: { ttftMs: 1, itlMs: 1, outputTokens: 6 } };

/** chat-c1 has prompts and settings of its own (a shorter answer limit), so it fits no study but its own. */
const SCENARIOS = [
  { name: "decode-c1", concurrency: 1 },
  { name: "chat-c1", prompts: "chat.jsonl", concurrency: 1, maxTokens: 12 },
];

/** A round folder with both prompt sets and round.yml; `gate` is merged into the round's gate. */
async function writeRound(dir: string, gate: SimRoundOptions["gate"] = {}): Promise<string> {
  return await writeSimRound(dir, {
    ...SIM_RUNTIME_ROUND,
    prompts: { "decode.jsonl": DECODE, "chat.jsonl": CHAT },
    bench: { requestIntervalMs: 0, warmupRequests: 0 },
    gate: { minRoundScore: 1, minPrompts: 1, ...gate },
    scenarios: SCENARIOS,
    // One config per calibration file named, so the rounds of one test do not overwrite the one calibrate read.
    fileName: typeof gate.calibration === "string" ? `round-${gate.calibration.replace(/\.json$/, "")}.yml` : "round.yml",
  });
}

const runtimeOf = (baseline: SimProfileInput, candidate: SimProfileInput) => new SimRuntime({ baseline, candidate }, [...DECODE, ...CHAT]);

/** The A/A study calibrate runs on the round config in `dir`, on engines of `profile` in both seats. */
async function study(dir: string, profile: SimProfileInput): Promise<CalibrationFile> {
  const round = await loadRound(await writeRound(dir), { skipCalibration: true });
  return runCalibration({
    round,
    rounds: MIN_CALIBRATION_ROUNDS,
    logger: silentLogger,
    signal: new AbortController().signal,
    runId: "calibrate-scenarios",
    runtimeFor: () => runtimeOf(profile, profile),
  });
}

async function calibrate(dir: string): Promise<CalibrationFile> {
  const file = await study(dir, ENGINE);
  // Through the file, as a round reads it.
  await writeFile(join(dir, "calibration.json"), JSON.stringify(file));
  return calibrationFileSchema.parse(file);
}

/** A round that gates on the calibration file `name` in `dir` under noise-floor, with a faster candidate. */
async function gatedRound(dir: string, name: string): Promise<Scorecard> {
  const round = await loadRound(await writeRound(dir, { calibration: name, use: "noise-floor" }));
  return runRound({ round, logger: silentLogger, signal: new AbortController().signal, runtime: runtimeOf(ENGINE, FASTER) });
}

/** Each scenario's calibration as its card has it: which study, and why it does not fit. */
const calibrationsOf = (card: Scorecard) =>
  (card.scenarios ?? []).map(({ name, card: one }) => ({
    name,
    use: one.gate.use,
    scenario: one.gate.calibration?.scenario,
    problems: one.gate.calibration?.problems,
  }));

/**
 * A card's per-scenario gate and calibration, which a rescore and the app's re-gate (under the round's
 * own bar, without a rule of their own) must derive again from the card alone.
 */
function expectRederivable(card: Scorecard): void {
  const again = rescoreScenarioCard(card);
  expect(calibrationsOf(again)).toEqual(calibrationsOf(card));
  expect(again.scenarios?.map(({ card: one }) => one.gate)).toEqual(card.scenarios?.map(({ card: one }) => one.gate));
  expect(again.gate).toEqual(card.gate);
  const { minRoundScore, maxUnscored, minPrompts, minAgreement, maxUnexplained } = card.gate;
  const regated = regateScorecard(card, { minRoundScore, maxUnscored, minPrompts, minAgreement, maxUnexplained }, null);
  expect(calibrationsOf(regated)).toEqual(calibrationsOf(card));
  expect(regated.scenarios?.map(({ card: one }) => one.gate.passed)).toEqual(card.scenarios?.map(({ card: one }) => one.gate.passed));
}

describe("speedgate calibrate on a round with scenarios", () => {
  it("writes a study per scenario with its own settings, and a round then gates every scenario on its own", async () => {
    const dir = await makeTempDir("speedgate-calibrate-scenarios-");
    const file = await calibrate(dir);
    const round = await loadRound(join(dir, "round.yml"), { skipCalibration: true });
    const [decode, chat] = round.scenarios ?? [];
    if (!decode || !chat) throw new Error("expected the round's two scenarios");

    expect(file.scenarios?.map((study) => study.name)).toEqual(["decode-c1", "chat-c1"]);
    expect(file.scenarios?.map((study) => study.rounds.length)).toEqual([MIN_CALIBRATION_ROUNDS, MIN_CALIBRATION_ROUNDS]);
    expect(file.scenarios?.[0]?.settings).toEqual(calibrationSettingsOf(decode.config, 5));
    expect(file.scenarios?.[1]?.settings).toEqual(calibrationSettingsOf(chat.config, 4));
    expect(file.scenarios?.[1]?.settings).toMatchObject({ maxTokens: 12, prompts: 4, concurrency: 1 });
    expect(file.scenarios?.map((study) => study.promptsHash)).toEqual([decode.fingerprint.promptsHash, chat.fingerprint.promptsHash]);
    // The top level is the headline's study, whole: a reader of the top level alone reads the first scenario's.
    const { name: _name, ...headline } = file.scenarios?.[0] ?? {};
    expect({ promptsHash: file.promptsHash, settings: file.settings, rounds: file.rounds, noise: file.noise }).toEqual(headline);

    const summary = describeCalibration(file, 0.1);
    expect(summary).toContain(
      `${MIN_CALIBRATION_ROUNDS} rounds of 5 prompts, bench.runs 1, scenario decode-c1 (the headline; every scenario's floor is below):`,
    );
    expect(summary).toContain("  each scenario, gated on its own floor (2):\n");
    expect(summary).toMatch(
      /\n {4}decode-c1: noise floor \+[\d.]+%, a speedup of -?[\d.]+% over the bar passes 95% of the time \(5 prompts, bench\.runs 1\)\n/,
    );
    expect(summary).toMatch(
      /\n {4}chat-c1: noise floor \+[\d.]+%, a speedup of -?[\d.]+% over the bar passes 95% of the time \(4 prompts, bench\.runs 1\)\n/,
    );

    const card = await gatedRound(dir, "calibration.json");
    expect(scorecardSchema.parse(card)).toBeTruthy();
    expect(calibrationsOf(card)).toEqual([
      { name: "decode-c1", use: "noise-floor", scenario: { name: "decode-c1", studied: true }, problems: [] },
      { name: "chat-c1", use: "noise-floor", scenario: { name: "chat-c1", studied: true }, problems: [] },
    ]);
    // Each scenario carries the scores of its own study, not the headline's.
    expect(card.scenarios?.map(({ card: one }) => one.gate.calibration?.scores)).toEqual(
      file.scenarios?.map((study) => study.rounds.map((entry) => entry.roundScore)),
    );
    expect(card.scenarios?.every(({ card: one }) => !one.gate.reason.includes("calibration"))).toBe(true);
    expectRederivable(card);
  }, 120_000);

  it("keeps the gate of a scenario the file has no study of closed, naming what to do, while the others are judged", async () => {
    const dir = await makeTempDir("speedgate-calibrate-scenarios-");
    const file = await calibrate(dir);
    // The decode scenario's study only; and a file of a round without scenarios (its top level, the headline's study).
    await writeFile(join(dir, "decode-only.json"), JSON.stringify({ ...file, scenarios: file.scenarios?.slice(0, 1) }));
    const { scenarios: _scenarios, ...withoutStudies } = file;
    await writeFile(join(dir, "no-studies.json"), JSON.stringify(withoutStudies));

    const missing = describeMissingScenario("chat-c1");
    expect(missing).toBe("the calibration has no scenario chat-c1: run speedgate calibrate again with this round config");
    const card = await gatedRound(dir, "decode-only.json");
    expect(calibrationsOf(card)).toEqual([
      { name: "decode-c1", use: "noise-floor", scenario: { name: "decode-c1", studied: true }, problems: [] },
      { name: "chat-c1", use: "noise-floor", scenario: { name: "chat-c1", studied: false }, problems: [missing] },
    ]);
    const [decode, chat] = card.scenarios ?? [];
    expect(chat?.card.gate).toMatchObject({ passed: false, reason: `the calibration does not fit this round: ${missing}` });
    expect(decode?.card.gate.reason).not.toContain("calibration");
    expect(card.gate.passed).toBe(false);
    expect(card.gate.reasons).toContain(`chat-c1: the calibration does not fit this round: ${missing}`);
    expectRederivable(card);

    const old = await gatedRound(dir, "no-studies.json");
    expect(calibrationsOf(old).map(({ name, problems }) => [name, problems])).toEqual([
      ["decode-c1", [describeMissingScenario("decode-c1")]],
      ["chat-c1", [missing]],
    ]);
    expectRederivable(old);
  }, 120_000);

  it("refuses, before anything starts, a scenario's study measured with other settings, naming the scenario", async () => {
    const dir = await makeTempDir("speedgate-calibrate-scenarios-");
    const file = await calibrate(dir);
    const scenarios = file.scenarios?.map((study) =>
      study.name === "chat-c1" ? { ...study, settings: { ...study.settings, maxTokens: 8 } } : study,
    );
    await writeFile(join(dir, "stale.json"), JSON.stringify({ ...file, scenarios }));
    const path = await writeRound(dir, { calibration: "stale.json", use: "noise-floor" });
    await expect(loadRound(path)).rejects.toMatchObject({ problems: ["scenario chat-c1: bench.maxTokens is 12, the calibration used 8"] });
  }, 120_000);

  it("stops the study at an A/A round a scenario has no score in, naming the scenario", async () => {
    const dir = await makeTempDir("speedgate-calibrate-scenarios-");
    // Five decode prompts, then the chat scenario's: the engine dies on its seventh request, inside chat-c1.
    const dying = study(dir, { ...ENGINE, faults: { dieAfterRequests: 7 } });
    await expect(dying).rejects.toBeInstanceOf(CalibrationRoundError);
    await expect(dying).rejects.toThrow(/^A\/A round 1 of 5 has no score in scenario chat-c1, so the runner's noise cannot be measured: /);
  }, 120_000);
});
