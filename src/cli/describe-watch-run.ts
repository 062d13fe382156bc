import { describeChange, describeEstimate } from "../history/render-bisection.js";
import type { WatchRun } from "../round/run-watch.js";
import { scenarioLabel } from "../watch/scenario-estimates.js";

const VERDICTS = {
  drifted: "DRIFTED beyond the bar",
  within: "within the bar",
  unclear: "straddles the bar",
  none: "scored nothing",
} as const;

/** What `speedgate watch` prints: which commits it compared and why, each scenario against the bar, and where the good commit is now. */
export function describeWatchRun(run: WatchRun, maxDrift: number): string {
  const lines = [`good commit: ${run.base.good.slice(0, 12)} (${run.base.because})`, `main's head: ${run.head.slice(0, 12)}`];
  if (!run.judgement) {
    lines.push("nothing merged since the good commit: no round was run");
  } else {
    lines.push(`drift round, bar ${maxDrift.toFixed(2)}× (watch.maxDrift):`);
    for (const entry of run.judgement.scenarios) {
      const measured = entry.estimate ? describeEstimate(entry.estimate) : "no score (see the card's failure)";
      lines.push(`  ${scenarioLabel(entry.name)}: ${measured}: ${VERDICTS[entry.verdict]}`);
    }
    if (run.change) {
      lines.push(
        `CHANGE POINT: ${scenarioLabel(run.change.scenario)} ${describeChange(run.change.score)} between ` +
          `${run.change.before.slice(0, 12)} and ${run.change.after.slice(0, 12)} in the watch's series ` +
          `(p ${run.change.pValue.toFixed(3)})`,
      );
    }
    lines.push(
      run.judgement.alarm
        ? `ALARM: main drifted (${run.judgement.drifted.map((entry) => scenarioLabel(entry.name)).join(", ")})`
        : run.judgement.failed
          ? "no verdict: the drift round scored nothing"
          : "no alarm",
    );
  }
  lines.push(`good commit from now on: ${run.state.good.slice(0, 12)} (${run.state.goodBecause})`);
  return `${lines.join("\n")}\n`;
}
