import { markdownTable } from "markdown-table";
import { escapeInline } from "../safe-text/escape-engine-text.js";
import type { PooledEstimate, RoundEstimate } from "../scoring/pool-round-estimates.js";
import type { BisectionOutcome, BisectionPlan, JudgedStep } from "../watch/plan-bisection.js";
import { scenarioLabel } from "../watch/scenario-estimates.js";

/*
 * A bisection of main as people read it: the tracking issue the app keeps up to date as steps land,
 * `speedgate bisect`'s bisection.md, and the action's job summary. Every figure is a speed change
 * against the commit named beside it, with its 95% interval; every verdict says what it rests on.
 */

/** One commit of the range as the report names it. */
export interface ReportCommit {
  sha: string;
  subject?: string | null;
  /** The pull request whose merge made the commit, when known (the app asks GitHub). */
  pullRequest?: { number: number; url: string | null } | null;
}

export interface BisectionReport {
  /** The followed scenario (null: a round without scenarios). */
  scenario: string | null;
  /** main's first-parent range, the good commit first. */
  commits: readonly ReportCommit[];
  /** The range round: the bad commit against the good one. */
  drift: RoundEstimate;
  plan: BisectionPlan;
  /** What started it, in a sentence ("the drift round of 2026-03-01", "a change point in main's series"). */
  trigger: string;
  /** A commit's page, when the report lives on GitHub. */
  commitUrl?: ((sha: string) => string) | null;
  /** Each step's run and runner, by step key, when known. */
  runs?: ReadonlyMap<string, { url: string | null; runner: string | null }>;
  /** Steps dispatched and not back yet, and any the app could not tell were dispatched. */
  pending?: readonly string[];
  uncertain?: readonly string[];
  /** The bar of the drift round that raised the alarm (watch.maxDrift). */
  maxDrift?: number | null;
}

/** A speed change against the other commit: "8.1% slower", "2.0% faster", "no change". */
export function describeChange(score: number): string {
  const percent = Math.abs(1 - score) * 100;
  if (percent < 0.05) return "no change";
  return `${percent.toFixed(1)}% ${score < 1 ? "slower" : "faster"}`;
}

/** An interval as slowdowns ("[6.8%, 9.0%] slower") when it lies below 1×, else as speedups. */
export function describeInterval(interval: { low: number; high: number } | null): string {
  if (!interval) return "no interval";
  if (interval.high < 1) return `[${((1 - interval.high) * 100).toFixed(1)}%, ${((1 - interval.low) * 100).toFixed(1)}%] slower`;
  return `[${interval.low.toFixed(3)}×, ${interval.high.toFixed(3)}×]`;
}

/** A change with its interval, the interval in the change's own words: "4.1% slower [2.9%, 5.2%]", else "[0.980×, 1.010×]" after it. */
export function describeEstimate(estimate: { score: number; interval: { low: number; high: number } | null }): string {
  const { interval } = estimate;
  const change = describeChange(estimate.score);
  if (interval && interval.high < 1)
    return `${change} [${((1 - interval.high) * 100).toFixed(1)}%, ${((1 - interval.low) * 100).toFixed(1)}%]`;
  return `${change} ${describeInterval(interval)}`;
}

function shortSha(sha: string): string {
  return sha.slice(0, 12);
}

function commitRef(report: BisectionReport, index: number): string {
  const commit = report.commits[index];
  if (!commit) return "?";
  const code = `\`${shortSha(commit.sha)}\``;
  const linked = report.commitUrl ? `[${code}](${report.commitUrl(commit.sha)})` : code;
  const pull = commit.pullRequest ? ` (#${commit.pullRequest.number})` : "";
  const subject = commit.subject ? ` ${escapeInline(commit.subject.slice(0, 80))}` : "";
  return `${linked}${pull}${subject}`;
}

function mergeName(report: BisectionReport, index: number): string {
  const commit = report.commits[index];
  const pull = commit?.pullRequest ? `#${commit.pullRequest.number} ` : "";
  return `${pull}\`${shortSha(commit?.sha ?? "")}\` (merge ${index} of ${report.commits.length - 1} in the range)`;
}

function estimateCells(pooled: PooledEstimate | null): [string, string] {
  if (!pooled) return ["—", "—"];
  const interval = pooled.interval ? `${pooled.interval.low.toFixed(3)}× – ${pooled.interval.high.toFixed(3)}×` : "—";
  return [`${pooled.score.toFixed(3)}× (${describeChange(pooled.score)})`, interval];
}

const VERDICT_WORDS: Record<JudgedStep["verdict"], string> = {
  good: "at the good level",
  bad: "at the bad level",
  explains: "explains the drift",
  partial: "explains part of it",
  unclear: "straddles the bar",
  failed: "scored nothing",
};

function stepName(step: JudgedStep): string {
  return step.purpose === "probe" ? `probe ${step.index}` : `parent of ${step.index}`;
}

function describeOutcome(report: BisectionReport, outcome: BisectionOutcome): string[] {
  const label = scenarioLabel(report.scenario);
  const barText = `the bar ${report.plan.bar.toFixed(3)}× (halfway between 1× and the drift)`;
  switch (outcome.kind) {
    case "single": {
      const parent = report.plan.steps.find((step) => step.purpose === "parent" && step.index === outcome.firstBad);
      const pooled = parent?.pooled ?? null;
      const measured = pooled ? `${label} ${describeEstimate(pooled)} against its parent` : "";
      return [
        `**Found: ${mergeName(report, outcome.firstBad)}.** ${measured}${measured ? ", " : ""}` +
          `${Math.round(outcome.share.value * 100)}% of the drift (between ${Math.round(outcome.share.low * 100)}% and ` +
          `${Math.round(outcome.share.high * 100)}%).`,
      ];
    }
    case "gradual":
      return [
        `**Gradual drift: no single merge explains it.** ${label} got ${describeChange(report.drift.score)} over the ` +
          `${report.commits.length - 1} merges from ${commitRef(report, outcome.from)} to ${commitRef(report, outcome.to)}, ` +
          (outcome.evidence === "first-bad-explains-little"
            ? `and the first merge past ${barText}, ${mergeName(report, outcome.at)}, explains less than half of it against its own parent.`
            : `and ${mergeName(report, outcome.at)} sits part-way: slower than the good commit and faster than the bad one beyond ` +
              `their intervals, so the speed fell both before and after it.`),
      ];
    case "range":
      return [
        `**Narrowed to a range, not to one merge:** the first bad commit is after ${commitRef(report, outcome.from)} and at or ` +
          `before ${commitRef(report, outcome.to)}. ` +
          (outcome.why === "straddles"
            ? `${mergeName(report, outcome.unresolved)} still straddles ${barText} after its repeats, and speedgate does not guess.`
            : outcome.why === "failed"
              ? `The rounds of ${mergeName(report, outcome.unresolved)} scored nothing (see their cards).`
              : `${mergeName(report, outcome.unresolved)} is the first bad commit, but whether it explains most of the drift stays ` +
                `unclear after its repeats.`),
      ];
    case "no-drift":
      return [`**No drift to bisect:** the bad commit against the good one shows ${label} ${describeChange(report.drift.score)}.`];
  }
}

/** The whole report in Markdown. */
export function renderBisection(report: BisectionReport): string {
  const { plan } = report;
  const label = scenarioLabel(report.scenario);
  const n = report.commits.length - 1;
  const lines = [
    `## speedgate: ${escapeInline(label)} ${describeChange(report.drift.score)} on main`,
    "",
    `${report.trigger}: ${commitRef(report, n)} against ${commitRef(report, 0)}, ${n} merge${n === 1 ? "" : "s"} apart, measured ` +
      `${label} ${describeEstimate(report.drift)}` +
      `${report.maxDrift != null ? ` (the watch's bar: ${report.maxDrift.toFixed(2)}×)` : ""}.`,
    "",
  ];
  if (plan.outcome) lines.push(...describeOutcome(report, plan.outcome));
  else {
    const pending = report.pending ?? plan.next.map((step) => step.key);
    lines.push(
      `**Bisecting:** the first bad commit is after ${commitRef(report, plan.lo)} and at or before ${commitRef(report, plan.hi)}; ` +
        `${pending.length > 0 ? `running ${pending.join(", ")}` : "waiting for the next step"}.`,
    );
  }
  if ((report.uncertain ?? []).length > 0) {
    lines.push(
      "",
      `⚠️ speedgate cannot tell whether ${(report.uncertain ?? []).join(", ")} was dispatched (the app stopped while sending it). It is ` +
        "not sent again; if no run of the watch workflow for it appears, dispatch the workflow by hand with the inputs listed below.",
    );
  }
  const rows = plan.steps.map((step) => {
    const run = report.runs?.get(`${step.purpose}-${step.index}-${step.attempts}`) ?? report.runs?.get(`${step.purpose}-${step.index}-1`);
    const [score, interval] = estimateCells(step.pooled);
    const head = report.commits.findIndex((commit) => commit.sha === step.head);
    const base = report.commits.findIndex((commit) => commit.sha === step.base);
    return [
      run?.url ? `[${stepName(step)}](${run.url})` : stepName(step),
      head >= 0 ? commitRef(report, head) : `\`${shortSha(step.head)}\``,
      base === 0 ? "the good commit" : base >= 0 ? `its parent \`${shortSha(step.base)}\`` : `\`${shortSha(step.base)}\``,
      score,
      interval,
      `${VERDICT_WORDS[step.verdict]}${step.attempts > 1 ? ` (${step.attempts} rounds pooled)` : ""}`,
      run?.runner ? escapeInline(run.runner) : "—",
    ];
  });
  lines.push(
    "",
    `### Steps (${label}; a probe scores a merge against the good commit, the parent round the first bad merge against its parent)`,
    "",
  );
  if (rows.length === 0) lines.push("No step has landed yet.");
  else lines.push(markdownTable([["Step", "Commit", "Against", "Score", "Interval (95%)", "Verdict", "Runner"], ...rows]));
  lines.push(
    "",
    `How to read this: docs/watching-main.md. A step's bar is ${plan.bar.toFixed(3)}×; a step whose interval straddles it is run again ` +
      "(its rounds pooled) and never guessed.",
  );
  return `${lines.join("\n")}\n`;
}
