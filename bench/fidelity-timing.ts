import { loadavg } from "node:os";
import { pathToFileURL } from "node:url";
import { type StreamErrorResult, describeLevel, measureStreamErrors } from "./lib/measure-stream-errors.js";

/*
 * Figure 1: timing fidelity. The client's arrival time of each chunk minus the reference engine's
 * record of writing it, at 1, 64 and 256 concurrent streams (engine in its own process). Every
 * stream decodes at 20 ms a token, a busy production engine's pace; at 256 streams that is
 * 12,800 chunks a second, written in bursts as the streams' timers line up. Each level runs three
 * measured rounds after a warm-up; its median and p99 are the middle round's (the median of three),
 * so one round disturbed by other work on the machine does not set the figure.
 */

export interface FidelityFigure {
  levels: StreamErrorResult[];
  /** At 256 streams. */
  medianMs: number;
  p99Ms: number;
  goal: { medianMs: number; p99Ms: number };
  met: boolean;
  /** 1-minute load average when the measurement ended: other work on the machine inflates the errors. */
  loadAverage: number;
}

export async function measureFidelity(options: { log?: (line: string) => void } = {}): Promise<FidelityFigure> {
  const levels: StreamErrorResult[] = [];
  for (const streams of [1, 64, 256]) {
    const result = await measureStreamErrors({ streams, ttftMs: 20, itlMs: 20, outputTokens: 100 });
    options.log?.(describeLevel(result));
    levels.push(result);
  }
  const at256 = levels[levels.length - 1];
  const goal = { medianMs: 0.5, p99Ms: 5 };
  const medianMs = at256?.medianMs ?? Number.NaN;
  const p99Ms = at256?.p99Ms ?? Number.NaN;
  return { levels, medianMs, p99Ms, goal, met: medianMs < goal.medianMs && p99Ms < goal.p99Ms, loadAverage: loadavg()[0] ?? 0 };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const figure = await measureFidelity({ log: (line) => console.log(line) });
  console.log(
    `timing fidelity at 256 streams: median ${figure.medianMs.toFixed(3)} ms (goal < ${figure.goal.medianMs}), p99 ${figure.p99Ms.toFixed(3)} ms (goal < ${figure.goal.p99Ms}): ${figure.met ? "met" : "NOT met"} (load average ${figure.loadAverage.toFixed(2)})`,
  );
}
