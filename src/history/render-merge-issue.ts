import { markdownTable } from "markdown-table";
import { escapeInline } from "../safe-text/escape-engine-text.js";
import type { MergeJudgement, MergeScenario } from "../watch/judge-merge-rounds.js";
import { scenarioLabel } from "../watch/scenario-estimates.js";
import { type ReportCommit, describeEstimate } from "./render-bisection.js";

/*
 * What the app reports of a merge that watch.everyMerge found slower against its own parent: the tracking
 * issue's body (a new issue), or the one line it adds to the tracking issue of a bisection already open over
 * that merge. Every figure is the merge against its parent, its rounds pooled, with its 95% interval.
 */

export interface MergeReport {
  merge: ReportCommit;
  parent: string;
  judgement: MergeJudgement;
  maxDrift: number;
  /** Each round's run, in the order run. */
  runs: readonly { round: number; url: string | null }[];
  commitUrl?: ((sha: string) => string) | null;
}

const VERDICT_WORDS: Record<MergeScenario["verdict"], string> = {
  drifted: "slower than the bar",
  within: "within the bar",
  unclear: "straddles the bar",
  none: "scored nothing",
};

function commitLink(report: MergeReport, sha: string): string {
  const short = `\`${sha.slice(0, 12)}\``;
  return report.commitUrl ? `[${short}](${report.commitUrl(sha)})` : short;
}

function mergeName(report: MergeReport): string {
  const pull = report.merge.pullRequest;
  const number = pull ? (pull.url ? `[#${pull.number}](${pull.url}) ` : `#${pull.number} `) : "";
  return `${number}${commitLink(report, report.merge.sha)}`;
}

/** "decode 8.1% slower [7.6%, 8.5%] against its parent": the slowest drifted scenario, what the report leads with. */
export function describeMergeFinding(report: MergeReport): string {
  const worst = report.judgement.drifted[0];
  if (!worst?.pooled) return "no scenario drifted";
  return `${escapeInline(scenarioLabel(worst.name))} ${describeEstimate(worst.pooled)} against its parent`;
}

/** The one line added to an open bisection's tracking issue when the merge it is bisecting was already scored on its own. */
export function renderMergeLine(report: MergeReport): string {
  return (
    `**Merge ${mergeName(report)}, scored against its parent after it landed (\`watch.everyMerge\`):** ` +
    `${describeMergeFinding(report)}, below the bar of ${report.maxDrift.toFixed(2)}× ` +
    `(${report.judgement.rounds} round${report.judgement.rounds === 1 ? "" : "s"}).`
  );
}

/** The tracking issue of a merge found slower: the finding, each scenario's pooled score and verdict, and the rounds' runs. */
export function renderMergeIssue(report: MergeReport): string {
  const subject = report.merge.subject ? ` (${escapeInline(report.merge.subject)})` : "";
  const table = markdownTable([
    ["Scenario", "Against its parent", "Rounds", "Verdict"],
    ...report.judgement.scenarios.map((entry) => [
      escapeInline(scenarioLabel(entry.name)),
      entry.pooled ? `${entry.pooled.score.toFixed(3)}× (${describeEstimate(entry.pooled)})` : "—",
      String(entry.pooled?.rounds ?? 0),
      VERDICT_WORDS[entry.verdict],
    ]),
  ]);
  const runs = report.runs.map((run) => (run.url ? `[round ${run.round}](${run.url})` : `round ${run.round}`)).join(", ");
  return [
    `**Found: ${mergeName(report)}${subject}.** ${describeMergeFinding(report)}, its whole 95% interval below the watch's bar ` +
      `of ${report.maxDrift.toFixed(2)}×.`,
    "",
    `The watch scores each merge to main against its first parent ${commitLink(report, report.parent)} after it lands ` +
      "(`watch.everyMerge`), on the same runner, with the round config's scenarios; a round whose interval straddles the bar " +
      "is run again and the rounds pooled.",
    "",
    table,
    "",
    `Runs: ${runs || "none"}.`,
    "",
  ].join("\n");
}
