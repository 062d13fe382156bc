import { dispatchWatchStep, stepRunTitle } from "../../src/github/dispatch-watch-step.js";
import { downloadScorecardZip } from "../../src/github/download-scorecard-artifact.js";
import type { GitHubClient, RepoRef } from "../../src/github/github-client.js";
import { isDefiniteRefusal } from "../../src/github/is-definite-refusal.js";
import { listMainRange } from "../../src/github/list-main-range.js";
import type { CommitInfo } from "../../src/github/read-commit.js";
import { readCommit } from "../../src/github/read-commit.js";
import { DEFAULT_ZIP_LIMITS } from "../../src/github/read-scorecard-zip.js";
import { DEFAULT_REPO_CONFIG } from "../../src/github/repo-config-schema.js";
import { type ReportCommit, renderBisection } from "../../src/history/render-bisection.js";
import { renderRegressionComment } from "../../src/history/render-regression-comment.js";
import type { RoundEstimate } from "../../src/scoring/pool-round-estimates.js";
import type { BisectionRound, StoredBisection } from "../../src/store/main-series.js";
import { type BisectionPlan, type StepRecord, parseStepKey, planBisection } from "../../src/watch/plan-bisection.js";
import { scenarioLabel } from "../../src/watch/scenario-estimates.js";
import type { MainSeriesStore } from "../store/app-store.js";
import type { JobContext } from "../work/app-work.js";
import type { AppDeps } from "./app-deps.js";
import { mergeCommentKey } from "./judge-merge-round.js";
import { openJob } from "./open-job.js";
import { type BisectJobPayload, bisectJobSchema } from "./read-watch-card.js";

/*
 * A bisection of main as the app's durable work (docs/watching-main.md). The plan is a pure function of
 * the rounds stored (src/watch/plan-bisection.ts), so each run of this job, after a step's card or after
 * a restart, recomputes it from the store alone: the steps to dispatch next, or the outcome. Each step is
 * dispatched once, ever: its dispatch is recorded under the bisection and step key before it is sent
 * (src/store/run-side-effect-once.ts), so a job run again, a redelivered card or a restart mid-send never
 * starts a second GPU run of it. The tracking issue is opened once and rewritten as steps land; the first
 * bad merge's pull request is told once.
 */

function scenarioEstimate(round: BisectionRound, scenario: string | null): RoundEstimate | null {
  const entry = round.scores.find((score) => score.scenario === scenario);
  if (!entry || entry.score === null || !(entry.score > 0)) return null;
  return { score: entry.score, interval: entry.interval };
}

/** The plan from the stored rounds; null when the range round is missing or scored nothing for the followed scenario. */
export function planFromRounds(
  bisection: StoredBisection,
  rounds: readonly BisectionRound[],
  watch: BisectJobPayload["watch"],
): { plan: BisectionPlan; drift: RoundEstimate } | null {
  const range = rounds.find((round) => round.stepKey === "range");
  const drift = range ? scenarioEstimate(range, bisection.scenario) : null;
  if (!drift) return null;
  const records: StepRecord[] = rounds.flatMap((round) => {
    const key = round.stepKey ? parseStepKey(round.stepKey) : null;
    return key ? [{ ...key, estimate: scenarioEstimate(round, bisection.scenario) }] : [];
  });
  const plan = planBisection(
    {
      commits: bisection.commits,
      drift,
      maxRepeats: watch.maxRepeats,
      explainShare: watch.explainShare,
      parallel: watch.parallelSteps,
    },
    records,
  );
  return { plan, drift };
}

/** "Merge pull request #11 from …" (a merge commit) or "Title (#11)" (a squash merge): the pull request a commit of main merged. */
function pullRequestOf(subject: string, repo: RepoRef): ReportCommit["pullRequest"] {
  const match = /^Merge pull request #(\d+)\b/.exec(subject) ?? /\(#(\d+)\)\s*$/.exec(subject);
  if (!match?.[1]) return null;
  return { number: Number(match[1]), url: `https://github.com/${repo.owner}/${repo.repo}/pull/${match[1]}` };
}

async function openOrUpdateIssue(
  deps: AppDeps,
  client: GitHubClient,
  repo: RepoRef,
  bisection: StoredBisection,
  title: string,
  body: string,
  job: JobContext,
): Promise<{ number: number; url: string | null } | null> {
  const repository = `${repo.owner}/${repo.repo}`.toLowerCase();
  const opened = await deps.store.sideEffects.once<{ number: number; url: string | null }>({
    key: `bisection:${repository}:${bisection.id}:issue`,
    kind: "issue",
    isDefiniteRefusal,
    send: async () => {
      const response = await client.request("POST /repos/{owner}/{repo}/issues", { ...repo, title, body });
      const data = response.data as { number?: unknown; html_url?: unknown };
      if (typeof data.number !== "number") throw new Error("POST issues: GitHub's answer has no issue number");
      return { number: data.number, url: typeof data.html_url === "string" ? data.html_url : null };
    },
  });
  if (opened.state === "uncertain") {
    job.log.warn({ work: job.key }, `bisection ${bisection.id}'s tracking issue may or may not have been opened: ${opened.reason}`);
    return null;
  }
  if (!opened.sentNow) {
    await client.request("PATCH /repos/{owner}/{repo}/issues/{issue_number}", { ...repo, issue_number: opened.result.number, title, body });
  }
  return opened.result;
}

/** The first bad merge's card against its parent, rendered as its pull request's card is: read again from that round's run. */
async function readStepCard(deps: AppDeps, client: GitHubClient, repo: RepoRef, runId: number): Promise<string | null> {
  const downloaded = await downloadScorecardZip(client, { ...repo, runId });
  if (!downloaded) return null;
  const card = await deps.cards.read({
    zip: downloaded.zip,
    source: downloaded.source,
    limits: DEFAULT_ZIP_LIMITS,
    gate: DEFAULT_REPO_CONFIG.gate,
    docsBaseUrl: deps.docsBaseUrl,
  });
  return card.ok ? card.comment : null;
}

/** Tells the first bad merge's pull request, once: what it did to main, against its own parent, and where the bisection is. */
async function commentOnFirstBad(
  deps: AppDeps,
  client: GitHubClient,
  repo: RepoRef,
  context: {
    bisection: StoredBisection;
    plan: BisectionPlan;
    drift: RoundEstimate;
    rounds: readonly BisectionRound[];
    commits: readonly CommitInfo[];
    issueUrl: string | null;
  },
  job: JobContext,
): Promise<void> {
  const { bisection, plan } = context;
  const outcome = plan.outcome;
  if (outcome?.kind !== "single") return;
  const sha = bisection.commits[outcome.firstBad] ?? "";
  const measured =
    plan.steps.find((step) => step.purpose === "parent" && step.index === outcome.firstBad) ??
    plan.steps.find((step) => step.purpose === "probe" && step.index === outcome.firstBad);
  const pooled = measured?.pooled ?? (outcome.parent === 0 && outcome.firstBad === bisection.commits.length - 1 ? context.drift : null);
  if (!pooled) return;
  const purpose = outcome.parent === 0 ? "probe" : "parent";
  const stepRounds = context.rounds.filter((round) => round.stepKey?.startsWith(`${purpose}-${outcome.firstBad}-`));
  const cardRound = stepRounds.at(-1) ?? (outcome.parent === 0 ? context.rounds.find((round) => round.stepKey === "range") : undefined);
  const pulls = await client.request("GET /repos/{owner}/{repo}/commits/{commit_sha}/pulls", { ...repo, commit_sha: sha });
  const pull = (Array.isArray(pulls.data) ? (pulls.data as { number?: unknown }[]) : []).find((entry) => typeof entry.number === "number");
  if (!pull || typeof pull.number !== "number") {
    job.log.info({ work: job.key }, `no pull request merged ${sha.slice(0, 12)}: the tracking issue is the only report`);
    return;
  }
  const issueNumber = pull.number;
  const commit = context.commits.find((candidate) => candidate.sha === sha) ?? (await readCommit(client, { ...repo, ref: sha }));
  const body = renderRegressionComment({
    sha,
    mergedAt: new Date(commit.committedAt ?? deps.now()),
    now: new Date(deps.now()),
    scenario: bisection.scenario,
    estimate: pooled,
    share: outcome.share.value,
    drift: context.drift,
    runner: cardRound?.runner ?? null,
    trackingUrl: context.issueUrl,
    cardMarkdown: cardRound ? await readStepCard(deps, client, repo, cardRound.runId) : null,
  });
  const repository = `${repo.owner}/${repo.repo}`.toLowerCase();
  const sent = await deps.store.sideEffects.once({
    // Keyed by the merge, as watch.everyMerge's comment is (judge-merge-round.ts): a merge named both ways is told once.
    key: mergeCommentKey(repository, sha),
    kind: "comment",
    isDefiniteRefusal,
    send: async () => {
      await client.request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", { ...repo, issue_number: issueNumber, body });
      return { pullRequest: issueNumber };
    },
  });
  if (sent.state === "uncertain")
    job.log.warn({ work: job.key }, `the comment on #${issueNumber} may not have been posted: ${sent.reason}`);
}

async function dispatchSteps(
  deps: AppDeps,
  client: GitHubClient,
  repo: RepoRef & { ref: string; workflow: string },
  bisection: StoredBisection,
  plan: BisectionPlan,
  job: JobContext,
): Promise<{ pending: string[]; uncertain: string[] }> {
  const pending: string[] = [];
  const uncertain: string[] = [];
  const repository = `${repo.owner}/${repo.repo}`.toLowerCase();
  for (const step of plan.next) {
    const outcome = await deps.store.sideEffects.once({
      key: `bisection:${repository}:${bisection.id}:dispatch:${step.key}`,
      kind: "dispatch",
      isDefiniteRefusal,
      send: async () =>
        await dispatchWatchStep(client, {
          owner: repo.owner,
          repo: repo.repo,
          workflow: repo.workflow,
          ref: repo.ref,
          base: step.base,
          head: step.head,
          step: stepRunTitle(bisection.id, step.key),
        }),
    });
    if (outcome.state === "uncertain") {
      job.log.warn(
        { work: job.key, step: step.key },
        `${step.key} of bisection ${bisection.id} may not have been dispatched: ${outcome.reason}`,
      );
      uncertain.push(step.key);
    } else {
      if (outcome.sentNow) job.log.info({ work: job.key, step: step.key }, `dispatched ${step.key} of bisection ${bisection.id}`);
      pending.push(step.key);
    }
  }
  return { pending, uncertain };
}

/** The range round of a bisection a change point started, dispatched once like any step. */
async function dispatchRange(
  deps: AppDeps,
  client: GitHubClient,
  repo: RepoRef & { ref: string; workflow: string },
  bisection: StoredBisection,
  job: JobContext,
): Promise<void> {
  const repository = `${repo.owner}/${repo.repo}`.toLowerCase();
  const outcome = await deps.store.sideEffects.once({
    key: `bisection:${repository}:${bisection.id}:dispatch:range`,
    kind: "dispatch",
    isDefiniteRefusal,
    send: async () =>
      await dispatchWatchStep(client, {
        owner: repo.owner,
        repo: repo.repo,
        workflow: repo.workflow,
        ref: repo.ref,
        base: bisection.good,
        head: bisection.bad,
        step: stepRunTitle(bisection.id, "range"),
      }),
  });
  if (outcome.state === "uncertain")
    job.log.warn({ work: job.key }, `the range round of bisection ${bisection.id} may not have been dispatched`);
  else if (outcome.sentNow) job.log.info({ work: job.key }, `dispatched the range round of bisection ${bisection.id} (a change point)`);
}

/** The bisect job: the plan from the stored rounds, its next steps dispatched once each, the tracking issue, at the end the comment. */
export function advanceBisectionJob(deps: AppDeps) {
  return async (raw: unknown, job: JobContext): Promise<void> => {
    const opened = await openJob(deps, bisectJobSchema, raw, job);
    if (!opened) return;
    const main: MainSeriesStore | null = deps.store.main;
    if (!main) return;
    const { payload, repo, client } = opened;
    const bisection = await main.bisection(payload.bisectionId);
    if (!bisection || bisection.status !== "running") return;
    const rounds = await main.rounds(bisection.id);
    if (!rounds.some((round) => round.stepKey === "range") && bisection.trigger === "change-point") {
      // A change point's range was never measured head to head: its range round is the first step.
      await dispatchRange(
        deps,
        client,
        { ...repo, ref: payload.repository.default_branch, workflow: payload.watch.workflow },
        bisection,
        job,
      );
      return;
    }
    const planned = planFromRounds(bisection, rounds, payload.watch);
    if (!planned) {
      job.log.warn(
        { work: job.key },
        `bisection ${bisection.id} has no range round scoring ${scenarioLabel(bisection.scenario)}: abandoned`,
      );
      await main.finish(bisection.id, { outcome: null, status: "abandoned" });
      return;
    }
    const { plan, drift } = planned;
    const { pending, uncertain } = await dispatchSteps(
      deps,
      client,
      { ...repo, ref: payload.repository.default_branch, workflow: payload.watch.workflow },
      bisection,
      plan,
      job,
    );
    const commits = await listMainRange(client, { ...repo, good: bisection.good, bad: bisection.bad });
    const range = rounds.find((round) => round.stepKey === "range");
    const runs = new Map(rounds.flatMap((round) => (round.stepKey ? [[round.stepKey, { url: round.runUrl, runner: round.runner }]] : [])));
    const body = renderBisection({
      scenario: bisection.scenario,
      commits: commits.map((commit) => ({ sha: commit.sha, subject: commit.subject, pullRequest: pullRequestOf(commit.subject, repo) })),
      drift,
      plan,
      trigger:
        bisection.trigger === "change-point"
          ? `A change point in main's series of drift rounds; its range round${range?.runUrl ? ` ([run](${range.runUrl}))` : ""}`
          : `The drift round${range?.runUrl ? ` ([run](${range.runUrl}))` : ""}`,
      commitUrl: (sha) => `https://github.com/${repo.owner}/${repo.repo}/commit/${sha}`,
      runs,
      pending,
      uncertain,
      maxDrift: bisection.trigger === "change-point" ? null : payload.watch.maxDrift,
    });
    const outcomeWord =
      plan.outcome?.kind === "single"
        ? `merge ${bisection.commits[plan.outcome.firstBad]?.slice(0, 12) ?? "?"}`
        : plan.outcome?.kind === "gradual"
          ? "a gradual drift"
          : plan.outcome?.kind === "range"
            ? "a range"
            : plan.outcome?.kind === "no-drift"
              ? "no drift"
              : "bisecting";
    const span = `${bisection.good.slice(0, 7)}..${bisection.bad.slice(0, 7)}`;
    const title = `speedgate: ${scenarioLabel(bisection.scenario)} slower on main (${span}): ${outcomeWord}`;
    const issue = await openOrUpdateIssue(deps, client, repo, bisection, title, body, job);
    if (!plan.outcome) return;
    await commentOnFirstBad(deps, client, repo, { bisection, plan, drift, rounds, commits, issueUrl: issue?.url ?? null }, job);
    await main.finish(bisection.id, { outcome: plan.outcome, status: "done", trackingIssue: issue?.number ?? null });
    job.log.info(
      { work: job.key, outcome: plan.outcome.kind },
      `bisection ${bisection.id} of ${repo.owner}/${repo.repo} ended: ${outcomeWord}`,
    );
  };
}
