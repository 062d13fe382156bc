import type { GitHubClient, RepoRef } from "../../src/github/github-client.js";
import { isDefiniteRefusal } from "../../src/github/is-definite-refusal.js";
import { readCommit } from "../../src/github/read-commit.js";
import { type MergeReport, renderMergeIssue, renderMergeLine } from "../../src/history/render-merge-issue.js";
import { renderRegressionComment } from "../../src/history/render-regression-comment.js";
import type { MainRoundFacts } from "../../src/store/main-round-facts.js";
import type { MainRoundRecord } from "../../src/store/main-series.js";
import { judgeMergeRounds } from "../../src/watch/judge-merge-rounds.js";
import { scenarioLabel } from "../../src/watch/scenario-estimates.js";
import type { JobContext } from "../work/app-work.js";
import type { AppDeps } from "./app-deps.js";
import { dispatchMergeRound } from "./score-each-merge.js";

/*
 * A merge's round read back (watch.everyMerge, docs/watching-main.md): stored in main's series as that
 * commit's merge round, then the merge judged from all its rounds (src/watch/judge-merge-rounds.ts). A round
 * straddling the bar is dispatched again (once per round number, as every dispatch); a merge slower than the
 * bar beyond doubt gets what a bisection's first bad merge gets: the comment on its pull request with its card
 * against its parent, and a tracking issue, or one line in the tracking issue of a bisection already open over
 * it. The comment is keyed by the merge's SHA, the key a bisection naming the same merge uses too
 * (advance-bisection.ts): one merge is told once.
 */

/** The key of the comment on the pull request that merged `sha`: shared by watch.everyMerge and the bisection. */
export function mergeCommentKey(repository: string, sha: string): string {
  return `merge:${repository.toLowerCase()}:${sha}:comment`;
}

export interface MergeRoundContext {
  deps: AppDeps;
  job: JobContext;
  client: GitHubClient;
  repo: RepoRef;
  /** Where the watch workflow is dispatched from. */
  defaultBranch: string;
  watch: { workflow: string; maxDrift: number; maxRepeats: number };
  origin: Pick<MainRoundRecord, "repository" | "runId" | "runAttempt" | "runUrl">;
  merge: { sha: string; round: number };
  facts: MainRoundFacts | null;
  /** The round's card as its pull request's comment renders it, when it could be read. */
  cardMarkdown: string | null;
}

/** "Merge pull request #11 from …" (a merge commit) or "Title (#11)" (a squash merge): the pull request a commit of main merged. */
function pullRequestOf(subject: string, repo: RepoRef): { number: number; url: string } | null {
  const match = /^Merge pull request #(\d+)\b/.exec(subject) ?? /\(#(\d+)\)\s*$/.exec(subject);
  if (!match?.[1]) return null;
  return { number: Number(match[1]), url: `https://github.com/${repo.owner}/${repo.repo}/pull/${match[1]}` };
}

/** Stores the merge's round and judges the merge: another round, a report, or a log line saying it held or stayed undecided. */
export async function judgeMergeRound(context: MergeRoundContext): Promise<void> {
  const { deps, job, client, repo, merge, facts } = context;
  const main = deps.store.main;
  if (!main) return;
  const repository = `${repo.owner}/${repo.repo}`;
  const commit = await readCommit(client, { ...repo, ref: merge.sha });
  const parent = commit.parents[0];
  if (!parent) {
    job.log.warn({ work: job.key }, `run ${context.origin.runId} names merge ${merge.sha.slice(0, 12)}, which has no parent`);
    return;
  }
  const matches = facts?.commits?.base === parent && facts.commits.head === merge.sha;
  if (facts && !matches) {
    job.log.warn(
      { work: job.key, run: context.origin.runId },
      `run ${context.origin.runId}'s card scored ${facts.commits?.head.slice(0, 12) ?? "no commits"} against ` +
        `${facts.commits?.base.slice(0, 12) ?? "?"}, not merge ${merge.sha.slice(0, 12)} against its parent ${parent.slice(0, 12)}: ` +
        "stored as a round that scored nothing",
    );
  }
  await main.recordRound({
    ...context.origin,
    kind: "merge",
    baseSha: parent,
    headSha: merge.sha,
    headCommittedAt: commit.committedAt,
    bisectionId: null,
    stepKey: `merge-${merge.round}`,
    runner: facts?.runner ?? null,
    gpu: facts?.gpu ?? null,
    engine: facts?.engine ?? null,
    failureKind: matches ? (facts.failureKind ?? null) : facts ? "commits_mismatch" : "no_card",
    cardCreatedAt: facts?.cardCreatedAt ?? null,
    scores: matches ? facts.scores : [],
  });
  const rounds = await main.mergeRounds(repository, merge.sha);
  const judgement = judgeMergeRounds(rounds, context.watch);
  const name = `merge ${merge.sha.slice(0, 12)}`;
  const summary = judgement.scenarios
    .map((entry) => `${scenarioLabel(entry.name)} ${entry.pooled ? entry.pooled.score.toFixed(3) : "—"}× ${entry.verdict}`)
    .join(", ");
  job.log.info(
    { work: job.key, merge: merge.sha, verdict: judgement.verdict },
    `${name} against its parent: ${summary || "nothing scored"}`,
  );
  switch (judgement.verdict) {
    case "repeat":
      await dispatchMergeRound(
        deps,
        client,
        { ...repo, ref: context.defaultBranch, workflow: context.watch.workflow },
        { sha: merge.sha, parent, round: rounds.length + 1 },
        job,
      );
      return;
    case "undecided":
      job.log.info(
        { work: job.key, merge: merge.sha, verdict: "undecided" },
        `${name} is undecided after ${rounds.length} rounds: its interval still straddles the bar of ` +
          `${context.watch.maxDrift.toFixed(2)}×; not named (the drift round and the change point still watch it)`,
      );
      return;
    case "nothing":
      job.log.warn({ work: job.key, merge: merge.sha }, `${name} scored nothing in ${rounds.length} rounds: not judged`);
      return;
    case "within":
      return;
    case "regression":
      break;
  }
  const report: MergeReport = {
    merge: { sha: merge.sha, subject: commit.subject, pullRequest: pullRequestOf(commit.subject, repo) },
    parent,
    judgement,
    maxDrift: context.watch.maxDrift,
    runs: rounds.map((round, index) => ({ round: index + 1, url: round.runUrl })),
    commitUrl: (sha) => `https://github.com/${repo.owner}/${repo.repo}/commit/${sha}`,
  };
  const issueUrl = await reportInIssue(context, report);
  await commentOnMerge(context, report, issueUrl);
}

/** The tracking issue: one line in the issue of a bisection already open over this merge, else the merge's own issue; once each. */
async function reportInIssue(context: MergeRoundContext, report: MergeReport): Promise<string | null> {
  const { deps, job, client, repo, merge } = context;
  const repository = `${repo.owner}/${repo.repo}`.toLowerCase();
  const running = await deps.store.main?.running(repository);
  const worst = report.judgement.drifted[0];
  const label = scenarioLabel(worst?.name ?? null);
  const openIssue = async (title: string, body: string): Promise<{ number: number; url: string | null }> => {
    const response = await client.request("POST /repos/{owner}/{repo}/issues", { ...repo, title, body });
    const data = response.data as { number?: unknown; html_url?: unknown };
    if (typeof data.number !== "number") throw new Error("POST issues: GitHub's answer has no issue number");
    return { number: data.number, url: typeof data.html_url === "string" ? data.html_url : null };
  };
  if (running?.commits.includes(merge.sha)) {
    // The bisection's own issue, under its own key: opened here if its first job has not opened it yet (it then rewrites it).
    const span = `${running.good.slice(0, 7)}..${running.bad.slice(0, 7)}`;
    const issue = await deps.store.sideEffects.once({
      key: `bisection:${repository}:${running.id}:issue`,
      kind: "issue",
      isDefiniteRefusal,
      send: async () => await openIssue(`speedgate: ${scenarioLabel(running.scenario)} slower on main (${span}): bisecting`, "Bisecting…"),
    });
    if (issue.state === "uncertain") {
      job.log.warn({ work: job.key }, `bisection ${running.id}'s tracking issue may or may not exist: ${issue.reason}`);
      return null;
    }
    const line = await deps.store.sideEffects.once({
      key: `merge:${repository}:${merge.sha}:issue-line`,
      kind: "comment",
      isDefiniteRefusal,
      send: async () => {
        await client.request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", {
          ...repo,
          issue_number: issue.result.number,
          body: renderMergeLine(report),
        });
        return { issue: issue.result.number };
      },
    });
    if (line.state === "uncertain") job.log.warn({ work: job.key }, `the line on issue #${issue.result.number} may not have been posted`);
    return issue.result.url;
  }
  const opened = await deps.store.sideEffects.once({
    key: `merge:${repository}:${merge.sha}:issue`,
    kind: "issue",
    isDefiniteRefusal,
    send: async () => await openIssue(`speedgate: ${label} slower on main: merge ${merge.sha.slice(0, 12)}`, renderMergeIssue(report)),
  });
  if (opened.state === "uncertain") {
    job.log.warn({ work: job.key }, `merge ${merge.sha.slice(0, 12)}'s tracking issue may or may not have been opened: ${opened.reason}`);
    return null;
  }
  return opened.result.url;
}

/** The comment on the pull request that merged it: its card against its parent, once for this merge whoever names it. */
async function commentOnMerge(context: MergeRoundContext, report: MergeReport, issueUrl: string | null): Promise<void> {
  const { deps, job, client, repo, merge } = context;
  const worst = report.judgement.drifted[0];
  if (!worst?.pooled) return;
  const pulls = await client.request("GET /repos/{owner}/{repo}/commits/{commit_sha}/pulls", { ...repo, commit_sha: merge.sha });
  const pull = (Array.isArray(pulls.data) ? (pulls.data as { number?: unknown }[]) : []).find((entry) => typeof entry.number === "number");
  if (!pull || typeof pull.number !== "number") {
    job.log.info({ work: job.key }, `no pull request merged ${merge.sha.slice(0, 12)}: the tracking issue is the only report`);
    return;
  }
  const issueNumber = pull.number;
  const commit = await readCommit(client, { ...repo, ref: merge.sha });
  const body = renderRegressionComment({
    sha: merge.sha,
    mergedAt: new Date(commit.committedAt ?? deps.now()),
    now: new Date(deps.now()),
    scenario: worst.name,
    estimate: worst.pooled,
    share: null,
    drift: null,
    maxDrift: context.watch.maxDrift,
    rounds: worst.pooled.rounds,
    runner: context.facts?.runner ?? null,
    trackingUrl: issueUrl,
    cardMarkdown: context.cardMarkdown,
  });
  const sent = await deps.store.sideEffects.once({
    key: mergeCommentKey(`${repo.owner}/${repo.repo}`, merge.sha),
    kind: "comment",
    isDefiniteRefusal,
    send: async () => {
      await client.request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", { ...repo, issue_number: issueNumber, body });
      return { pullRequest: issueNumber };
    },
  });
  if (sent.state === "uncertain")
    job.log.warn({ work: job.key }, `the comment on #${issueNumber} may not have been posted: ${sent.reason}`);
  else if (!sent.sentNow) job.log.info({ work: job.key }, `#${issueNumber} was told of merge ${merge.sha.slice(0, 12)} before`);
}
