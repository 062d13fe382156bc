import { studentTQuantile } from "./student-t-quantile.js";

/** The one-sided level an unchanged engine is held to: it passes a calibrated gate 2.5% of the time. */
export const FALSE_PASS_TARGET = 0.025;
/** The power the detectable speedup is quoted at. */
export const DETECTION_POWER = 0.95;
const Z_POWER = 1.6448536269514722;
/** Fewer A/A rounds than this cannot estimate a spread worth gating on. */
export const MIN_CALIBRATION_ROUNDS = 5;

export interface NoiseFloor {
  rounds: number;
  /** Mean and standard deviation of the A/A round scores' logarithms. */
  meanLog: number;
  sdLog: number;
  /**
   * How far above the bar an unchanged engine's round score reaches in all but 2.5% of rounds, as a
   * fraction (0.031 = 3.1%): the upper 97.5% prediction bound of one more A/A round, never below 0.
   */
  floor: number;
  /** The speedup over the bar that passes 95% of the time under this noise, as a fraction. */
  detectableSpeedup: number;
}

/**
 * The noise floor from A/A round scores (the baseline scored against itself, N rounds). A speedup
 * is a ratio, so the spread is taken on the log scale, where a 5% gain and a 5% loss are the same
 * size. The bound is a prediction bound, mean + t(N−1)·sd·√(1 + 1/N), rather than the mean plus
 * 1.96 sd: it accounts for having estimated the spread from N rounds, so the promise "an unchanged
 * engine passes at most 2.5% of the time" holds on average over calibrations, not only for a lucky one.
 */
export function computeNoiseFloor(scores: readonly number[]): NoiseFloor {
  const n = scores.length;
  if (n < MIN_CALIBRATION_ROUNDS) throw new RangeError(`expected at least ${MIN_CALIBRATION_ROUNDS} A/A round scores, got ${n}`);
  if (scores.some((score) => !(score > 0) || !Number.isFinite(score)))
    throw new RangeError("expected every A/A round score to be a positive number");
  const logs = scores.map((score) => Math.log(score));
  const meanLog = logs.reduce((sum, value) => sum + value, 0) / n;
  const sdLog = Math.sqrt(logs.reduce((sum, value) => sum + (value - meanLog) ** 2, 0) / (n - 1));
  const bound = meanLog + studentTQuantile(1 - FALSE_PASS_TARGET, n - 1) * sdLog * Math.sqrt(1 + 1 / n);
  const floor = Math.max(0, Math.exp(bound) - 1);
  // A true speedup s scores around meanLog + ln s; it passes 95% of the time once that clears ln(1 + floor) by 1.645 sd.
  const detectableSpeedup = Math.exp(Math.log1p(floor) - meanLog + Z_POWER * sdLog) - 1;
  return { rounds: n, meanLog, sdLog, floor, detectableSpeedup };
}
