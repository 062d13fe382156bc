import { z } from "zod";
import { appWatchSchema } from "../../src/config/watch-settings-schema.js";
import { parseMergeRunTitle, parseStepRunTitle } from "../../src/github/dispatch-watch-step.js";
import { downloadScorecardZip } from "../../src/github/download-scorecard-artifact.js";
import type { RepoRef } from "../../src/github/github-client.js";
import { listMainRange } from "../../src/github/list-main-range.js";
import { readCommit } from "../../src/github/read-commit.js";
import { ArtifactError, DEFAULT_ZIP_LIMITS } from "../../src/github/read-scorecard-zip.js";
import { DEFAULT_REPO_CONFIG } from "../../src/github/repo-config-schema.js";
import type { MainRoundFacts } from "../../src/store/main-round-facts.js";
import type { MainRoundRecord } from "../../src/store/main-series.js";
import { findSeriesChange } from "../../src/watch/find-series-change.js";
import { judgeDrift } from "../../src/watch/judge-drift.js";
import { parseStepKey } from "../../src/watch/plan-bisection.js";
import type { ScenarioEstimate } from "../../src/watch/scenario-estimates.js";
import { workflowRunPayloadSchema } from "../payloads/workflow-run-payload.js";
import type { MainSeriesStore } from "../store/app-store.js";
import { mainLane } from "../store/derive-work-key.js";
import type { JobContext } from "../work/app-work.js";
import type { AppDeps, InstallationOctokit } from "./app-deps.js";
import { judgeMergeRound } from "./judge-merge-round.js";
import { openJob } from "./open-job.js";

/*
 * The watch workflow's cards (docs/watching-main.md): a scheduled (or dispatched) drift round of main's
 * head against the good commit, or a step of a bisection the app dispatched. Each goes to main's series
 * (src/store/main-series.ts); a drift round judged beyond the repository's watch.maxDrift starts a
 * bisection, one per repository at a time; a step's card moves its bisection on (advance-bisection.ts).
 * The card is trusted for main's series only when the run is the default branch's own: a watch run on
 * another branch (a pull request's edit of the workflow) never reaches the series.
 */

export const watchCardSchema = workflowRunPayloadSchema.extend({ installationId: z.number().int(), watch: appWatchSchema });
export type WatchCardPayload = z.output<typeof watchCardSchema>;

export const bisectJobSchema = z.object({
  installationId: z.number().int(),
  repository: workflowRunPayloadSchema.shape.repository,
  bisectionId: z.number().int().positive(),
  watch: appWatchSchema,
});
export type BisectJobPayload = z.output<typeof bisectJobSchema>;

function estimatesOf(facts: MainRoundFacts): ScenarioEstimate[] {
  return facts.scores.map((entry) => ({
    name: entry.scenario,
    estimate: entry.score !== null && entry.score > 0 ? { score: entry.score, interval: entry.interval } : null,
  }));
}

/**
 * The card (its facts for main's series, and the whole card for its page), or null when the run uploaded none or it was
 * refused (said in the log: the step counts as scoring nothing).
 */
async function readWatchCard(deps: AppDeps, job: JobContext, client: InstallationOctokit, repo: RepoRef, runId: number) {
  let downloaded;
  try {
    downloaded = await downloadScorecardZip(client, { ...repo, runId });
  } catch (error) {
    if (!(error instanceof ArtifactError)) throw error;
    job.log.warn({ work: job.key, run: runId }, `the watch run's card was refused: ${error.message}`);
    return null;
  }
  if (!downloaded) {
    job.log.warn({ work: job.key, run: runId }, `watch run ${runId} uploaded no card`);
    return null;
  }
  const card = await deps.cards.read({
    zip: downloaded.zip,
    source: downloaded.source,
    limits: DEFAULT_ZIP_LIMITS,
    // Scores and intervals are the card's own whatever the gate: main's series reads nothing the gate decides.
    gate: DEFAULT_REPO_CONFIG.gate,
    docsBaseUrl: deps.docsBaseUrl,
  });
  if (!card.ok) {
    job.log.warn({ work: job.key, run: runId }, `the watch run's card was refused: ${card.problem}`);
    return null;
  }
  return card;
}

/** A step's card: stored under its bisection when its commits are the step's; a card of other commits counts as scoring nothing. */
async function recordStep(
  main: MainSeriesStore,
  job: JobContext,
  payload: WatchCardPayload,
  repository: string,
  step: { bisectionId: number; stepKey: string },
  facts: MainRoundFacts | null,
): Promise<boolean> {
  const run = payload.workflow_run;
  const bisection = await main.bisection(step.bisectionId);
  // The range round of a bisection a change point started: the bad commit against the good one, run as its first step.
  const parsed =
    step.stepKey === "range" ? { purpose: "range" as const, index: (bisection?.commits.length ?? 0) - 1 } : parseStepKey(step.stepKey);
  if (!bisection || !parsed || bisection.repository !== repository.toLowerCase() || bisection.status !== "running") {
    job.log.info(
      { work: job.key, run: run.id },
      `run ${run.id} names ${step.stepKey} of bisection ${step.bisectionId}, which is not running`,
    );
    return false;
  }
  const head = bisection.commits[parsed.index];
  const base = parsed.purpose === "parent" ? bisection.commits[parsed.index - 1] : bisection.commits[0];
  if (!head || !base) {
    job.log.warn({ work: job.key, run: run.id }, `${step.stepKey} is outside bisection ${bisection.id}'s range`);
    return false;
  }
  const matches = facts?.commits?.base === base && facts.commits.head === head;
  if (facts && !matches) {
    job.log.warn(
      { work: job.key, run: run.id },
      `run ${run.id}'s card scored ${facts.commits?.head.slice(0, 12) ?? "no commits"} ` +
        `against ${facts.commits?.base.slice(0, 12) ?? "?"}, ` +
        `not ${step.stepKey}'s ${head.slice(0, 12)} against ${base.slice(0, 12)}: stored as a step that scored nothing`,
    );
  }
  await main.recordRound({
    ...roundOrigin(payload),
    kind: parsed.purpose === "parent" ? "parent" : "probe",
    baseSha: base,
    headSha: head,
    headCommittedAt: null,
    bisectionId: bisection.id,
    stepKey: step.stepKey,
    runner: facts?.runner ?? null,
    gpu: facts?.gpu ?? null,
    engine: facts?.engine ?? null,
    failureKind: matches ? (facts.failureKind ?? null) : facts ? "commits_mismatch" : "no_card",
    cardCreatedAt: facts?.cardCreatedAt ?? null,
    scores: matches ? facts.scores : [],
  });
  return true;
}

function roundOrigin(payload: WatchCardPayload): Pick<MainRoundRecord, "repository" | "runId" | "runAttempt" | "runUrl"> {
  const run = payload.workflow_run;
  return {
    repository: `${payload.repository.owner.login}/${payload.repository.name}`,
    runId: run.id,
    runAttempt: run.run_attempt,
    runUrl: run.html_url ?? null,
  };
}

/**
 * The change-point method over the stored series (docs/watching-main.md): the drift rounds measured against
 * this round's good commit, each scenario's log scores, E-divisive means with a permutation p-value
 * (src/watch/find-series-change.ts, the same as `speedgate watch` runs over its state file). A step it finds,
 * recorded once, starts a bisection between the heads of the two rounds around it; its range round is
 * dispatched as the bisection's first step, since no round measured those two commits against each other.
 */
async function startOnChangePoint(
  main: MainSeriesStore,
  client: InstallationOctokit,
  repo: RepoRef,
  good: string,
  facts: MainRoundFacts,
  watch: WatchCardPayload["watch"],
): Promise<number | null> {
  const repository = `${repo.owner}/${repo.repo}`;
  const rounds = new Map<number, { head: string; at: string; scores: { name: string | null; score: number }[] }>();
  for (const entry of facts.scores) {
    for (const point of await main.driftSeries(repository, entry.scenario)) {
      if (point.baseSha !== good || point.score === null || !(point.score > 0) || point.bisectionId !== null) continue;
      const round = rounds.get(point.roundId) ?? { head: point.headSha, at: point.recordedAt.toISOString(), scores: [] };
      round.scores.push({ name: entry.scenario, score: point.score });
      rounds.set(point.roundId, round);
    }
  }
  const ids = [...rounds.keys()].sort((a, b) => a - b);
  const series = ids.flatMap((id) => rounds.get(id) ?? []);
  const change = findSeriesChange(series, watch.changePoint);
  if (!change) return null;
  const firstRoundId = ids.find((id) => rounds.get(id)?.head === change.after);
  if (firstRoundId === undefined || (await main.running(repository))) return null;
  const point = { repository, scenario: change.scenario, firstRoundId, pValue: change.pValue, change: change.score, bisectionId: null };
  if (!(await main.recordChangePoint(point))) return null;
  const commits = await listMainRange(client, { ...repo, good: change.before, bad: change.after });
  if (commits.length < 2) return null;
  return await main.startBisection({
    repository,
    commits: commits.map((commit) => commit.sha),
    scenario: change.scenario,
    trigger: "change-point",
  });
}

/** The watch-card job: a finished watch run's card into main's series, then a bisection started or moved on. */
export function watchCardJob(deps: AppDeps) {
  return async (raw: unknown, job: JobContext): Promise<void> => {
    const opened = await openJob(deps, watchCardSchema, raw, job);
    if (!opened) return;
    const main = deps.store.main;
    const { payload, repo, client } = opened;
    const run = payload.workflow_run;
    const repository = `${repo.owner}/${repo.repo}`;
    if (!main) {
      job.log.warn({ work: job.key, run: run.id }, "the app has no database: main's series is not kept and nothing is bisected");
      return;
    }
    const ownBranch =
      run.head_branch === payload.repository.default_branch &&
      (run.head_repository?.full_name ?? repository).toLowerCase() === repository.toLowerCase() &&
      (run.event === "schedule" || run.event === "workflow_dispatch");
    if (!ownBranch) {
      job.log.info(
        { work: job.key, run: run.id },
        `watch run ${run.id} (${run.event || "?"} on ${run.head_branch ?? "?"}) is not the default branch's own: not main's series`,
      );
      return;
    }
    const card = await readWatchCard(deps, job, client, repo, run.id);
    const facts = card?.mainRound ?? null;
    // The whole card under this run's attempt, as a pull request's is: the page main's trend links each point to.
    if (card && deps.store.history) {
      await deps.store.history.recordDocument({
        repository,
        runId: run.id,
        runAttempt: run.run_attempt,
        pullRequest: null,
        headSha: facts?.commits?.head ?? run.head_sha,
        card: card.cardGzip,
        facts: card.documentFacts,
      });
    }
    // A merge's round against its parent (watch.everyMerge): judge-merge-round.ts stores and judges it.
    const merge = parseMergeRunTitle(run.display_title ?? "");
    if (merge) {
      await judgeMergeRound({
        deps,
        job,
        client,
        repo,
        defaultBranch: payload.repository.default_branch,
        watch: payload.watch,
        origin: roundOrigin(payload),
        merge,
        facts,
        cardMarkdown: card?.comment ?? null,
      });
      return;
    }
    const step = parseStepRunTitle(run.display_title ?? "");
    const bisectPayload = (bisectionId: number): BisectJobPayload => ({
      installationId: payload.installationId,
      repository: payload.repository,
      bisectionId,
      watch: payload.watch,
    });
    if (step) {
      if (!(await recordStep(main, job, payload, repository, step, facts))) return;
      await job.submit({
        task: "bisect",
        payload: { ...bisectPayload(step.bisectionId) },
        key: `bisect:${repository.toLowerCase()}:${step.bisectionId}:run:${run.id}:${run.run_attempt}`,
        lane: mainLane(repository),
        deliveryId: job.deliveryId,
      });
      return;
    }
    if (!facts?.commits) {
      job.log.info({ work: job.key, run: run.id }, `watch run ${run.id}'s card is not a round of two main commits: not main's series`);
      return;
    }
    const { base, head } = facts.commits;
    const headCommit = await readCommit(client, { ...repo, ref: head });
    const drift: MainRoundRecord = {
      ...roundOrigin(payload),
      kind: "drift",
      baseSha: base,
      headSha: head,
      headCommittedAt: headCommit.committedAt,
      bisectionId: null,
      stepKey: null,
      runner: facts.runner,
      gpu: facts.gpu,
      engine: facts.engine,
      failureKind: facts.failureKind,
      cardCreatedAt: facts.cardCreatedAt,
      scores: facts.scores,
    };
    await main.recordRound(drift);
    const judgement = judgeDrift(estimatesOf(facts), payload.watch.maxDrift);
    const drifted = judgement.drifted[0];
    job.log.info(
      { work: job.key, run: run.id, alarm: judgement.alarm },
      `drift round ${head.slice(0, 12)} against ${base.slice(0, 12)}: ` +
        judgement.scenarios.map((entry) => `${entry.name ?? "the round"} ${entry.verdict}`).join(", "),
    );
    if (!drifted) {
      if (!judgement.failed && payload.watch.changePoint.enabled) {
        const started = await startOnChangePoint(main, client, repo, base, facts, payload.watch);
        if (started !== null) {
          await job.submit({
            task: "bisect",
            payload: { ...bisectPayload(started) },
            key: `bisect:${repository.toLowerCase()}:${started}:start`,
            lane: mainLane(repository),
            deliveryId: job.deliveryId,
          });
        }
      }
      return;
    }
    const running = await main.running(repository);
    if (running?.trigger === "drift" && running.good === base && running.bad === head) {
      // This range's bisection was started by this round's job (or a rerun of the same round) and may not have been
      // handed on: the app died between the writes. Finish them; the start job is stored once, ever, by its key.
      if (!(await main.rounds(running.id)).some((round) => round.stepKey === "range"))
        await main.recordRound({ ...drift, bisectionId: running.id, stepKey: "range" });
      await job.submit({
        task: "bisect",
        payload: { ...bisectPayload(running.id) },
        key: `bisect:${repository.toLowerCase()}:${running.id}:start`,
        lane: mainLane(repository),
        deliveryId: job.deliveryId,
      });
      return;
    }
    if (running) {
      job.log.info({ work: job.key, run: run.id }, `bisection ${running.id} of ${repository} is still running: this drift waits for it`);
      return;
    }
    const commits = await listMainRange(client, { ...repo, good: base, bad: head });
    const id = await main.startBisection({
      repository,
      commits: commits.map((commit) => commit.sha),
      scenario: drifted.name,
      trigger: "drift",
    });
    if (id === null) return;
    // The drift round is the bisection's range round: the bad commit against the good one.
    await main.recordRound({ ...drift, bisectionId: id, stepKey: "range" });
    await job.submit({
      task: "bisect",
      payload: { ...bisectPayload(id) },
      key: `bisect:${repository.toLowerCase()}:${id}:start`,
      lane: mainLane(repository),
      deliveryId: job.deliveryId,
    });
  };
}
