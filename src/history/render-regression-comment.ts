import { escapeInline } from "../safe-text/escape-engine-text.js";
import type { RoundEstimate } from "../scoring/pool-round-estimates.js";
import { scenarioLabel } from "../watch/scenario-estimates.js";
import { describeEstimate } from "./render-bisection.js";

/*
 * What the first bad merge's pull request is told once a bisection names it: one line that says what it
 * did to main and how sure that is ("merged 3 days ago: decode-c32 4.1% slower [2.9%, 5.2%] slower on
 * gpu-runner-3"), where the bisection is, then that commit's card against its own parent.
 */

export interface RegressionComment {
  /** The merge commit on main. */
  sha: string;
  mergedAt: Date;
  now: Date;
  scenario: string | null;
  /** The merge against its own parent: the parent round of the bisection, its rounds pooled. */
  estimate: RoundEstimate;
  /**
   * Its share of the drift the bisection followed (0..1 on the log scale), and that drift; null for a merge that
   * watch.everyMerge scored against its parent after it landed (`maxDrift` then says the bar it fell below).
   */
  share: number | null;
  drift: RoundEstimate | null;
  maxDrift?: number;
  /** The rounds pooled into `estimate` (a straddling round is repeated). */
  rounds?: number;
  runner: string | null;
  /** Where the bisection is reported (the tracking issue), when there is one. */
  trackingUrl: string | null;
  /** The merge's card against its parent, rendered; null when it is not at hand. */
  cardMarkdown: string | null;
}

/** "just now", "5 hours ago", "3 days ago": how long ago the merge landed, as a person says it. */
export function describeAgo(then: Date, now: Date): string {
  const hours = Math.max(0, (now.getTime() - then.getTime()) / 3_600_000);
  if (hours < 1) return "less than an hour ago";
  if (hours < 48) return `${Math.floor(hours)} hour${Math.floor(hours) === 1 ? "" : "s"} ago`;
  return `${Math.floor(hours / 24)} days ago`;
}

export function renderRegressionComment(comment: RegressionComment): string {
  const label = escapeInline(scenarioLabel(comment.scenario));
  const runner = comment.runner ? ` on ${escapeInline(comment.runner)}` : "";
  const lines = [
    `### speedgate: this merge made main slower`,
    "",
    `Merged ${describeAgo(comment.mergedAt, comment.now)}: ${label} ${describeEstimate(comment.estimate)}${runner}, ` +
      `measured as \`${comment.sha.slice(0, 12)}\` against its own parent.`,
    "",
    comment.drift && comment.share !== null
      ? `That is ${Math.round(comment.share * 100)}% of a drift of main of ${describeEstimate(comment.drift)} ` +
        "that a bisection on the runner traced to this merge" +
        `${comment.trackingUrl ? ` ([its steps](${comment.trackingUrl}))` : ""}.`
      : "The watch scores each merge against its parent after it lands (`watch.everyMerge`): this one's whole interval lies " +
        `below the bar of ${(comment.maxDrift ?? 1).toFixed(2)}×` +
        `${comment.rounds && comment.rounds > 1 ? ` (${comment.rounds} rounds pooled)` : ""}` +
        `${comment.trackingUrl ? ` ([the tracking issue](${comment.trackingUrl}))` : ""}.`,
  ];
  if (comment.cardMarkdown) {
    lines.push("", "<details><summary>The merge's card against its parent</summary>", "", comment.cardMarkdown, "", "</details>");
  }
  return `${lines.join("\n")}\n`;
}
