import { pathToFileURL } from "node:url";
import {
  DOCUMENTED_CALIBRATION_ROUNDS,
  DOCUMENTED_PROMPTS,
  DOCUMENTED_RUNNER,
  HARSH_RUNNER,
  NOISY_RUNNER,
  bistableEngine,
  type RunnerNoise,
  referenceScenario,
} from "../src/sim-engine/gate-scenarios.js";
import { DEFAULT_BENCH_RUNS } from "../src/scoring/evaluate-gate.js";
import type { SimProfileInput } from "../src/sim-engine/sim-profile.js";
import { fasterProfile } from "../src/sim-engine/simulate-round.js";
import { quantile, studyGate } from "../src/sim-engine/study-gate.js";

/*
 * The statistics of the gate at speedgate's default settings and others, on synthetic records from
 * the reference engine's timing model with a runner's noise injected (gate.minRoundScore 1, the
 * default gate.maxUnscored and gate.minPrompts, tolerance 0.9, 30 prompts; calibrations of 20 A/A
 * rounds, a new one every 20 rounds). About a minute on 2 cores. Seeded: the same on every machine; nothing here depends on its speed.
 *   - false-pass rate: how often an unchanged engine passes;
 *   - power at 10%: how often a 10% faster engine passes;
 *   - detectable speedup: the smallest speedup that passes at least 95% of the time.
 * The last two come from the same rounds as the first: a candidate s times faster scores exactly s
 * times higher on the same noise, so a round passes at s when s clears its margin (study-gate.ts);
 * test/sim-engine/gate-statistics.test.ts checks this against rounds of a really faster engine.
 */

export interface GateStatisticsRow {
  setup: string;
  /**
   * A setup speedgate promises the bars for (at most 5% of unchanged engines pass, at least 95% of 10% speedups); the rest are references.
   */
  promised: boolean;
  falsePassRate: number;
  powerAt10: number;
  detectableSpeedup: number;
}

export interface GateStatisticsFigure {
  rows: GateStatisticsRow[];
  rounds: number;
  prompts: number;
  calibrationRounds: number;
}

interface Setup {
  setup: string;
  noise: RunnerNoise;
  runs: number;
  calibrated: boolean;
  promised: boolean;
  /** A quarter of the prompts bistable (answer.branches), each request taking the second continuation with this probability. */
  bistable?: number;
}

const SETUPS: Setup[] = [
  // The defaults: nothing set but the bar.
  {
    setup: "defaults (not calibrated, bench.runs 4), engine starts differ by 2%",
    noise: HARSH_RUNNER,
    runs: DEFAULT_BENCH_RUNS,
    calibrated: false,
    promised: true,
  },
  {
    setup: "defaults (not calibrated, bench.runs 4), engine starts differ by 1.4%",
    noise: DOCUMENTED_RUNNER,
    runs: DEFAULT_BENCH_RUNS,
    calibrated: false,
    promised: true,
  },
  {
    setup: "defaults (not calibrated, bench.runs 4), engine starts differ by 3%",
    noise: NOISY_RUNNER,
    runs: DEFAULT_BENCH_RUNS,
    calibrated: false,
    promised: false,
  },
  {
    setup: "calibrated, bench.runs 4, engine starts differ by 2%",
    noise: HARSH_RUNNER,
    runs: DEFAULT_BENCH_RUNS,
    calibrated: true,
    promised: true,
  },
  { setup: "calibrated, bench.runs 1, engine starts differ by 1.4%", noise: DOCUMENTED_RUNNER, runs: 1, calibrated: true, promised: true },
  { setup: "calibrated, bench.runs 1, engine starts differ by 2%", noise: HARSH_RUNNER, runs: 1, calibrated: true, promised: true },
  { setup: "calibrated, bench.runs 3, engine starts differ by 2%", noise: HARSH_RUNNER, runs: 3, calibrated: true, promised: true },
  {
    setup: "not calibrated, bench.runs 1, engine starts differ by 1.4%",
    noise: DOCUMENTED_RUNNER,
    runs: 1,
    calibrated: false,
    promised: false,
  },
  {
    setup: "not calibrated, bench.runs 1, engine starts differ by 2% (the default before)",
    noise: HARSH_RUNNER,
    runs: 1,
    calibrated: false,
    promised: false,
  },
  { setup: "not calibrated, bench.runs 3, engine starts differ by 2%", noise: HARSH_RUNNER, runs: 3, calibrated: false, promised: false },
  // A batching engine's own nondeterminism (#28): a quarter of the prompts answered either of two ways from run to run.
  {
    setup: "defaults, a quarter of the prompts bistable (50/50), engine starts differ by 1.4%",
    noise: DOCUMENTED_RUNNER,
    runs: DEFAULT_BENCH_RUNS,
    calibrated: false,
    promised: true,
    bistable: 0.5,
  },
  {
    setup: "defaults, a quarter of the prompts bistable (20/80), engine starts differ by 1.4%",
    noise: DOCUMENTED_RUNNER,
    runs: DEFAULT_BENCH_RUNS,
    calibrated: false,
    promised: true,
    bistable: 0.2,
  },
  {
    setup: "defaults, a quarter of the prompts bistable (50/50), engine starts differ by 2%",
    noise: HARSH_RUNNER,
    runs: DEFAULT_BENCH_RUNS,
    calibrated: false,
    promised: true,
    bistable: 0.5,
  },
];

export interface BistableCheatRow {
  candidate: string;
  /** Rounds it passes; the goal is none for a cheat, and is stated for a shift of an honest engine's odds. */
  passRate: number;
  /** How often the unexplained rule was among the reasons. */
  unexplainedRate: number;
}

/**
 * Candidates of the bistable engine (50/50, starts differ by 1.4%) at the defaults: 10% faster each,
 * one replacing the second continuation with filler where it would take it (timed only up to the
 * parting, so the filler's own speed gains nothing), one honest whose odds moved (its batches differ).
 */
export function measureBistableCheats(rounds: number): BistableCheatRow[] {
  const scenario = referenceScenario({ noise: DOCUMENTED_RUNNER, runs: DEFAULT_BENCH_RUNS });
  const engine = bistableEngine(scenario.engine, 0.5);
  const cases: Array<[string, SimProfileInput]> = [
    ["10% faster, filler where it would take the second continuation (50/50)", { ...engine, cheats: { fillerAtBranch: true } }],
    [
      "10% faster, filler where it would take the second continuation, the engine at 80/20",
      { ...bistableEngine(scenario.engine, 0.8), cheats: { fillerAtBranch: true } },
    ],
    ["10% faster, honest, its odds moved from 50/50 to 20/80", bistableEngine(scenario.engine, 0.2)],
  ];
  return cases.map(([candidate, profile], index) => {
    const baseline = candidate.includes("80/20") ? bistableEngine(scenario.engine, 0.8) : engine;
    const study = studyGate(
      { ...scenario, engine: baseline },
      { candidate: fasterProfile(profile, 1.1), rounds, firstRound: 100_000 * (index + 1), keepReasons: true },
    );
    const unexplained = study.reasons.filter((reasons) => reasons.some((reason) => reason.includes("none the baseline gave"))).length;
    return { candidate, passRate: study.passRate, unexplainedRate: unexplained / rounds };
  });
}

/** Which rule a gate reason is (the card's own wording), for counting how often each fired. */
const RULES = {
  shuffle: "more than the engine's own answers show: shuffling",
  variation: "far more than the engine's own variation gives",
  oneRun: "with one run the baseline's own answers show nothing",
  regressedPrompts: "scored below gate.regressionFloor",
  e2eP90: "E2E p90 at equal length",
  throughput: "output throughput",
  unscored: "were not scored",
  agreement: "median agreement",
} as const;
export type IntegrityRule = keyof typeof RULES;

export interface IntegrityRuleRow {
  candidate: string;
  /** Honest: the rules' firing rates are their false-alarm cost. A cheat: the goal is that it never passes. */
  honest: boolean;
  passRate: number;
  /** How often each rule was among the gate's reasons. */
  fired: Record<IntegrityRule, number>;
}

/** The first n prompt ids of a scenario, as the sim-engine's filler and stop lists name them. */
function promptsWhere(promptIds: readonly string[], keep: (index: number) => boolean): string[] {
  return promptIds.filter((_, index) => keep(index));
}

/**
 * The false-alarm cost of each integrity rule on honest engines of a batching engine's kind (answers
 * that vary from run to run), and what each catches of the cheats #38 named, over simulated rounds at
 * the defaults (4 runs, 30 prompts, starts differ by 1.4%). The offline model has no batch, so a cheat
 * gains no speed from leaving it (the real engine's test does, test/round/ways-through.test.ts) and
 * starving prompts cannot be played here: what is measured is which rules fire.
 */
export function measureIntegrityRules(rounds: number): IntegrityRuleRow[] {
  const scenario = referenceScenario({ noise: DOCUMENTED_RUNNER, runs: DEFAULT_BENCH_RUNS });
  const ids = scenario.promptIds;
  const bistable = (probability: number, every = 4) => ({
    ...scenario.engine,
    answer: { branches: { every, atFraction: 0.25, probability, lengthFactor: 0.6 } },
  });
  // Unique filler on 14 of 30 prompts in three runs of four; the others stop at 92% in the first run.
  const uniqueFiller = (after: number, prompts = 14, starts = [1, 2, 3], stops = true) => ({
    ...bistable(0.5, 15),
    cheats: {
      fillerAfterTokens: after,
      uniqueFiller: true,
      fillerPrompts: promptsWhere(ids, (index) => index % 2 === 1 && index < 2 * prompts),
      fillerOnStarts: starts,
    },
    ...(stops
      ? {
          faults: {
            stopEarly: promptsWhere(ids, (index) => !(index % 2 === 1 && index < 2 * prompts)),
            stopEarlyFraction: 0.92,
            stopEarlyOnStarts: [0],
          },
        }
      : {}),
  });
  // 10% faster unless `speedup` says otherwise: an unchanged engine fails for speed, so its rows count only which rules fired.
  const cases: Array<{ candidate: string; honest: boolean; baseline: SimProfileInput; profile: SimProfileInput; speedup?: number }> = [
    { candidate: "unchanged, a quarter bistable 50/50", honest: true, baseline: bistable(0.5), profile: bistable(0.5), speedup: 1 },
    { candidate: "unchanged, a quarter bistable 20/80", honest: true, baseline: bistable(0.2), profile: bistable(0.2), speedup: 1 },
    { candidate: "10% faster, no prompt bistable", honest: true, baseline: scenario.engine, profile: scenario.engine },
    { candidate: "10% faster, a quarter bistable 50/50", honest: true, baseline: bistable(0.5), profile: bistable(0.5) },
    { candidate: "10% faster, a quarter bistable 20/80", honest: true, baseline: bistable(0.2), profile: bistable(0.2) },
    {
      candidate: "10% faster, a quarter bistable, odds moved 50/50 to 20/80",
      honest: true,
      baseline: bistable(0.5),
      profile: bistable(0.2),
    },
    {
      candidate: "10% faster, a quarter bistable, the second continuation rare (5%)",
      honest: true,
      baseline: bistable(0.05),
      profile: bistable(0.05),
    },
    { candidate: "10% faster, 2 of 30 prompts bistable 50/50", honest: true, baseline: bistable(0.5, 15), profile: bistable(0.5, 15) },
    {
      candidate: "10% faster, filler where it would take the second continuation (50/50)",
      honest: false,
      baseline: bistable(0.5),
      profile: { ...bistable(0.5), cheats: { fillerAtBranch: true } },
    },
    {
      candidate: "10% faster, filler where it would take the second continuation, the engine at 80/20",
      honest: false,
      baseline: bistable(0.8),
      profile: { ...bistable(0.8), cheats: { fillerAtBranch: true } },
    },
    {
      candidate: "10% faster, unique filler after 17 tokens on 14 of 30 prompts in 3 runs of 4, a 92% stop on the rest in 1",
      honest: false,
      baseline: bistable(0.5, 15),
      profile: uniqueFiller(17),
    },
    {
      candidate: "10% faster, the same unique filler from token 2",
      honest: false,
      baseline: bistable(0.5, 15),
      profile: uniqueFiller(1),
    },
    {
      candidate: "10% faster, unique filler after 17 tokens on 5 of 30 prompts in 1 run of 4 (the next step: fewer)",
      honest: false,
      baseline: bistable(0.5, 15),
      profile: uniqueFiller(17, 5, [1], false),
    },
    {
      candidate: "10% faster, unique filler after 17 tokens on 8 of 30 prompts in 1 run of 4",
      honest: false,
      baseline: bistable(0.5, 15),
      profile: uniqueFiller(17, 8, [1], false),
    },
  ];
  return cases.map(({ candidate, honest, baseline, profile, speedup = 1.1 }, index) => {
    const study = studyGate(
      { ...scenario, engine: baseline },
      { candidate: fasterProfile(profile, speedup), rounds, firstRound: 200_000 * (index + 1), keepReasons: true },
    );
    const fired = Object.fromEntries(
      Object.entries(RULES).map(([rule, words]) => [
        rule,
        study.reasons.filter((reasons) => reasons.some((reason) => reason.includes(words))).length / rounds,
      ]),
    ) as Record<IntegrityRule, number>;
    return { candidate, honest, passRate: study.passRate, fired };
  });
}

export async function measureGateStatistics(
  options: { rounds?: number; log?: (line: string) => void } = {},
): Promise<GateStatisticsFigure> {
  const rounds = options.rounds ?? 400;
  const rows: GateStatisticsRow[] = [];
  for (const setup of SETUPS) {
    const reference = referenceScenario({ noise: setup.noise, runs: setup.runs });
    const scenario = setup.bistable === undefined ? reference : { ...reference, engine: bistableEngine(reference.engine, setup.bistable) };
    const calibration = setup.calibrated ? { calibrationRounds: DOCUMENTED_CALIBRATION_ROUNDS, recalibrateEvery: 20 } : {};
    const study = studyGate(scenario, { candidate: scenario.engine, rounds, ...calibration });
    const row = {
      setup: setup.setup,
      promised: setup.promised,
      falsePassRate: study.passRate,
      powerAt10: study.margins.filter((margin) => margin <= 1.1).length / rounds,
      detectableSpeedup: quantile(study.margins, 0.95) - 1,
    };
    rows.push(row);
    options.log?.(
      `${row.setup}: false pass ${(row.falsePassRate * 100).toFixed(1)}%, 10% passes ${(row.powerAt10 * 100).toFixed(1)}%, detects ` +
        `${(row.detectableSpeedup * 100).toFixed(1)}%`,
    );
    // Let the event loop breathe between setups (progress lines, signals).
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { rows, rounds, prompts: DOCUMENTED_PROMPTS, calibrationRounds: DOCUMENTED_CALIBRATION_ROUNDS };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const figure = await measureGateStatistics({ log: (line) => console.log(line) });
  console.log(`${figure.rounds} rounds per setup, ${figure.prompts} prompts, calibrations of ${figure.calibrationRounds} A/A rounds`);
  for (const row of measureIntegrityRules(figure.rounds)) {
    const fired = Object.entries(row.fired)
      .filter(([, rate]) => rate > 0)
      .map(([rule, rate]) => `${rule} ${(rate * 100).toFixed(1)}%`)
      .join(", ");
    console.log(`${row.candidate}: passes ${(row.passRate * 100).toFixed(1)}%; fired: ${fired || "none"}`);
  }
  for (const row of measureBistableCheats(figure.rounds)) {
    console.log(
      `${row.candidate}: passes ${(row.passRate * 100).toFixed(1)}%, unexplained rule ${(row.unexplainedRate * 100).toFixed(1)}%`,
    );
  }
}
