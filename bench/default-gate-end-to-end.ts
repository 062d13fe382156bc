import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { calibrationSourceOf } from "../src/config/load-round-calibration.js";
import { fitCalibration } from "../src/calibration/fit-calibration.js";
import { calibrationFileSchema } from "../src/calibration/calibration-schema.js";
import { readScorecard } from "../src/scorecard/read-scorecard.js";
import { calibrationFacts, rescoreCard } from "../src/scorecard/rescore-card.js";
import type { Scorecard } from "../src/scorecard/scorecard-schema.js";
import { DEFAULT_MAX_UNSCORED, DEFAULT_MIN_PROMPTS, type GateSettings } from "../src/scoring/evaluate-gate.js";
import { findFreePort } from "../src/engine/find-free-port.js";
import { fasterProfile } from "../src/sim-engine/simulate-round.js";
import type { SimProfileInput } from "../src/sim-engine/sim-profile.js";
import buildCliBundle from "../harness/cli-bundle/cli-bundle-setup.js";
import { PROMPTS_FILE, type SimRoundOptions, simEngineCommand, writeSimRound } from "../harness/sim-engine/write-sim-round.js";

/*
 * The default gate end to end: `speedgate run` in a fresh process per round, as a CI job runs it,
 * against the reference engine (`speedgate sim-engine`) started afresh for every run of each engine,
 * with --run-variance 0.0141 (two engine starts differ by 2% in speed) and --jitter 0.03 (each
 * request's timing varies by 3%; the real timers and this busy machine add their own per-token
 * jitter). The round config sets nothing but the prompts and the pace: bench.runs, the order, the
 * client warm-up and gate.use are the defaults.
 *   - A/A: both seats run the same engine; how often the default gate passes it.
 *   - 10% faster: the candidate's every time to first token and between tokens divided by 1.1.
 *   - the same rounds re-gated as one run (each round's first run alone), and calibrated
 *     (`speedgate calibrate` on this machine, then the noise-floor rule), from the cards alone.
 *   - order: the A/A score by run position, with the order and client before #20 (baseline first in
 *     every run, no client warm-up) and with the defaults.
 * 100 rounds of 8 engine starts each: about 45 minutes on this project's 2-core machine under other
 * people's test runs (load average 7 to 17), 25 s a round; ROUNDS, BEFORE_ROUNDS and CALIBRATION_ROUNDS
 * set the counts when it runs on its own (`npx tsx bench/default-gate-end-to-end.ts`).
 */

export interface GateRate {
  setup: string;
  passed: number;
  /** Rounds that gave a score; `failed` more did not, for reasons of the machine. */
  rounds: number;
  failed: number;
}

export interface DefaultGateEndToEndFigure {
  aaDefault: GateRate;
  fasterDefault: GateRate;
  aaOneRun: GateRate;
  fasterOneRun: GateRate;
  aaCalibrated: GateRate | null;
  fasterCalibrated: GateRate | null;
  /** Geometric mean of the A/A run scores at each run position. */
  positionsBefore: number[];
  positionsAfter: number[];
  /** Mean A/A round score of the calibration's rounds and of the default A/A rounds: they must agree. */
  calibrationMean: number | null;
  scoringMean: number;
  noiseFloor: number | null;
  prompts: number;
  runs: number;
  elapsedS: number;
}

const PROMPTS = 30;
const RUNS = 4;

function writeProfile(faster: number): SimProfileInput {
  const ids = Array.from({ length: PROMPTS }, (_, index) => `q${String(index + 1).padStart(2, "0")}`);
  const base: SimProfileInput = {
    defaults: { ttftMs: 30, itlMs: 6, outputTokens: 96 },
    prompts: Object.fromEntries(ids.map((id, index) => [id, { outputTokens: 48 + ((index * 37) % 144) }])),
  };
  return faster === 1 ? base : fasterProfile(base, faster);
}

function runCli(bundle: string, args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [bundle, ...args], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (part: Buffer) => (stderr = (stderr + part.toString("utf8")).slice(-4000)));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stderr })));
}

const geometricMean = (values: readonly number[]): number =>
  Math.exp(values.reduce((sum, value) => sum + Math.log(value), 0) / values.length);

function positionMeans(cards: readonly Scorecard[]): number[] {
  return Array.from({ length: RUNS }, (_, position) =>
    geometricMean(
      cards.map((card) => card.runs.scores[position]).filter((score): score is number => typeof score === "number" && score > 0),
    ),
  );
}

/** The card as if the round had run once: its first run alone, re-gated as the uncalibrated one-run default was. */
function firstRunOnly(card: Scorecard, gate: GateSettings): Scorecard {
  const oneRun: Scorecard = {
    ...card,
    settings: { ...card.settings, runs: 1 },
    prompts: card.prompts.map((prompt) => ({ ...prompt, runs: prompt.runs.slice(0, 1) })),
  };
  return rescoreCard(oneRun, { gate });
}

export async function measureDefaultGateEndToEnd(
  options: { rounds?: number; beforeRounds?: number; calibrationRounds?: number; log?: (line: string) => void } = {},
): Promise<DefaultGateEndToEndFigure> {
  const rounds = options.rounds ?? 40;
  const beforeRounds = options.beforeRounds ?? 10;
  // Half the CLI's default: the bench measures whether calibrated rounds hold, not the luck of one long study.
  const calibrationRounds = options.calibrationRounds ?? 10;
  const log = options.log ?? (() => undefined);
  const started = Date.now();
  const teardown = await buildCliBundle();
  const bundle = process.env.SPEEDGATE_DEV_CLI_BUNDLE as string;
  const dir = await mkdtemp(join(tmpdir(), "speedgate-bench-default-gate-"));
  try {
    const ids = Array.from({ length: PROMPTS }, (_, index) => `q${String(index + 1).padStart(2, "0")}`);
    const prompts = ids.map((id) => ({ id, messages: [{ role: "user", content: `Question ${id}: say something about ${id}.` }] }));
    await writeFile(join(dir, "baseline.json"), JSON.stringify(writeProfile(1)));
    await writeFile(join(dir, "faster.json"), JSON.stringify(writeProfile(1.1)));
    const engine = (profile: string): string[] =>
      simEngineCommand("--profile", join(dir, profile), "--prompts", PROMPTS_FILE, "--jitter", "0.03", "--run-variance", "0.0141");
    // Written again before each round with a port free at that moment: a fixed one was taken now and then on a busy machine.
    const writeConfig = async (name: string, candidateProfile: string, bench: SimRoundOptions["bench"] = {}): Promise<string> => {
      return await writeSimRound(dir, {
        port: await findFreePort(),
        prompts: { "prompts.jsonl": prompts },
        baseline: { command: engine("baseline.json") },
        candidate: { command: engine(candidateProfile) },
        // Four runs a round, the config's default.
        bench: { maxTokens: 256, requestIntervalMs: 25, runs: 4, ...bench },
        fileName: name,
      });
    };
    const aa = (): Promise<string> => writeConfig("aa.yml", "baseline.json");
    const faster = (): Promise<string> => writeConfig("faster.yml", "faster.json");
    const before = (): Promise<string> =>
      writeConfig("before.yml", "baseline.json", { runs: RUNS, order: "baseline-first", clientWarmup: false });
    let count = 0;
    const round = async (write: () => Promise<string>, label: string): Promise<Scorecard> => {
      const config = await write();
      const out = join(dir, `out-${++count}`);
      const result = await runCli(bundle, ["run", "--config", config, "--out", out]);
      if (result.code !== 0 && result.code !== 1) throw new Error(`speedgate run exited ${result.code}: ${result.stderr}`);
      const card = await readScorecard(join(out, "scorecard.json"));
      if (card.failure) log(`${label}: ${card.failure.engine} failed at ${card.failure.stage}: ${card.failure.label}`);
      log(
        `${label}: ${card.roundScore?.toFixed(4)} [${card.scoreInterval?.low.toFixed(4)}, ${card.scoreInterval?.high.toFixed(4)}] ` +
          `runs ${card.runs.scores.map((score) => score?.toFixed(3)).join(" ")} ${card.gate.passed ? "PASS" : "fail"}`,
      );
      return card;
    };
    // Interleaved, so a change in the machine's load falls on every kind of round alike.
    const aaCards: Scorecard[] = [];
    const fasterCards: Scorecard[] = [];
    const beforeCards: Scorecard[] = [];
    for (let index = 0; index < rounds; index++) {
      aaCards.push(await round(aa, `A/A ${index + 1}`));
      fasterCards.push(await round(faster, `10% faster ${index + 1}`));
      if (index < beforeRounds) beforeCards.push(await round(before, `A/A, order before ${index + 1}`));
    }
    const calibrationPath = join(dir, "calibration.json");
    // One A/A round the machine breaks ends a calibration; a second try is what a user would do.
    let calibrated = { code: null as number | null, stderr: "" };
    for (let attempt = 0; attempt < 2 && calibrated.code !== 0; attempt++) {
      calibrated = await runCli(bundle, [
        "calibrate",
        "--config",
        await aa(),
        "--runs",
        String(calibrationRounds),
        "--out",
        calibrationPath,
      ]);
      if (calibrated.code !== 0) log(`speedgate calibrate exited ${calibrated.code}: ${calibrated.stderr.slice(-400)}`);
    }
    const file = calibrated.code === 0 ? calibrationFileSchema.parse(JSON.parse(await readFile(calibrationPath, "utf8"))) : null;
    const gate = { minRoundScore: 1, maxUnscored: DEFAULT_MAX_UNSCORED, minPrompts: DEFAULT_MIN_PROMPTS };
    const regateCalibrated =
      (calibrationFile: NonNullable<typeof file>) =>
      (card: Scorecard): boolean => {
        const calibration = fitCalibration(calibrationSourceOf(calibrationFile), calibrationFacts(card));
        return rescoreCard({ ...card, gate: { ...card.gate, calibration } }, { gate: { ...gate, use: "noise-floor" } }).gate.passed;
      };
    // A round the machine broke (a port taken, an engine that missed its health deadline) measured nothing: it is counted apart.
    const measured = (cards: readonly Scorecard[]): Scorecard[] => cards.filter((card) => card.failure === null);
    const rate = (setup: string, cards: readonly Scorecard[], passes: (card: Scorecard) => boolean): GateRate => ({
      setup,
      passed: measured(cards).filter(passes).length,
      rounds: measured(cards).length,
      failed: cards.length - measured(cards).length,
    });
    return {
      aaDefault: rate("A/A, defaults", aaCards, (card) => card.gate.passed),
      fasterDefault: rate("10% faster, defaults", fasterCards, (card) => card.gate.passed),
      aaOneRun: rate("A/A, first run alone", aaCards, (card) => firstRunOnly(card, { ...gate, use: "interval-low" }).gate.passed),
      fasterOneRun: rate(
        "10% faster, first run alone",
        fasterCards,
        (card) => firstRunOnly(card, { ...gate, use: "interval-low" }).gate.passed,
      ),
      aaCalibrated: file ? rate("A/A, calibrated", aaCards, regateCalibrated(file)) : null,
      fasterCalibrated: file ? rate("10% faster, calibrated", fasterCards, regateCalibrated(file)) : null,
      positionsBefore: positionMeans(measured(beforeCards)),
      positionsAfter: positionMeans(measured(aaCards)),
      calibrationMean: file ? geometricMean(file.rounds.map((entry) => entry.roundScore)) : null,
      scoringMean: geometricMean(measured(aaCards).map((card) => card.roundScore as number)),
      noiseFloor: file?.noise.floor ?? null,
      prompts: PROMPTS,
      runs: RUNS,
      elapsedS: (Date.now() - started) / 1000,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
    await teardown();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const rounds = Number(process.env.ROUNDS ?? 40);
  const figure = await measureDefaultGateEndToEnd({
    rounds,
    beforeRounds: Number(process.env.BEFORE_ROUNDS ?? 10),
    calibrationRounds: Number(process.env.CALIBRATION_ROUNDS ?? 10),
    log: (line) => console.error(line),
  });
  console.log(JSON.stringify(figure, null, 2));
}
