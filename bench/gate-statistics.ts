import { pathToFileURL } from "node:url";
import {
  DOCUMENTED_CALIBRATION_ROUNDS,
  DOCUMENTED_PROMPTS,
  DOCUMENTED_RUNNER,
  HARSH_RUNNER,
  NOISY_RUNNER,
  type RunnerNoise,
  referenceScenario,
} from "../src/sim-engine/gate-scenarios.js";
import { DEFAULT_BENCH_RUNS } from "../src/scoring/evaluate-gate.js";
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
  /** A setup speedgate promises the bars for (at most 5% of unchanged engines pass, at least 95% of 10% speedups); the rest are references. */
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
}

const SETUPS: Setup[] = [
  // The defaults: nothing set but the bar.
  { setup: "defaults (not calibrated, bench.runs 4), engine starts differ by 2%", noise: HARSH_RUNNER, runs: DEFAULT_BENCH_RUNS, calibrated: false, promised: true },
  { setup: "defaults (not calibrated, bench.runs 4), engine starts differ by 1.4%", noise: DOCUMENTED_RUNNER, runs: DEFAULT_BENCH_RUNS, calibrated: false, promised: true },
  { setup: "defaults (not calibrated, bench.runs 4), engine starts differ by 3%", noise: NOISY_RUNNER, runs: DEFAULT_BENCH_RUNS, calibrated: false, promised: false },
  { setup: "calibrated, bench.runs 4, engine starts differ by 2%", noise: HARSH_RUNNER, runs: DEFAULT_BENCH_RUNS, calibrated: true, promised: true },
  { setup: "calibrated, bench.runs 1, engine starts differ by 1.4%", noise: DOCUMENTED_RUNNER, runs: 1, calibrated: true, promised: true },
  { setup: "calibrated, bench.runs 1, engine starts differ by 2%", noise: HARSH_RUNNER, runs: 1, calibrated: true, promised: true },
  { setup: "calibrated, bench.runs 3, engine starts differ by 2%", noise: HARSH_RUNNER, runs: 3, calibrated: true, promised: true },
  { setup: "not calibrated, bench.runs 1, engine starts differ by 1.4%", noise: DOCUMENTED_RUNNER, runs: 1, calibrated: false, promised: false },
  { setup: "not calibrated, bench.runs 1, engine starts differ by 2% (the default before)", noise: HARSH_RUNNER, runs: 1, calibrated: false, promised: false },
  { setup: "not calibrated, bench.runs 3, engine starts differ by 2%", noise: HARSH_RUNNER, runs: 3, calibrated: false, promised: false },
];

export async function measureGateStatistics(options: { rounds?: number; log?: (line: string) => void } = {}): Promise<GateStatisticsFigure> {
  const rounds = options.rounds ?? 400;
  const rows: GateStatisticsRow[] = [];
  for (const setup of SETUPS) {
    const scenario = referenceScenario({ noise: setup.noise, runs: setup.runs });
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
    options.log?.(`${row.setup}: false pass ${(row.falsePassRate * 100).toFixed(1)}%, 10% passes ${(row.powerAt10 * 100).toFixed(1)}%, detects ${(row.detectableSpeedup * 100).toFixed(1)}%`);
    // Let the event loop breathe between setups (progress lines, signals).
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { rows, rounds, prompts: DOCUMENTED_PROMPTS, calibrationRounds: DOCUMENTED_CALIBRATION_ROUNDS };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const figure = await measureGateStatistics({ log: (line) => console.log(line) });
  console.log(`${figure.rounds} rounds per setup, ${figure.prompts} prompts, calibrations of ${figure.calibrationRounds} A/A rounds`);
}
