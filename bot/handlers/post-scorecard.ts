import { posix } from "node:path";
import type { Context } from "probot";
import { z } from "zod";
import { downloadScorecardZip } from "../../src/github/download-scorecard-artifact.js";
import type { GitHubClient, RepoRef } from "../../src/github/github-client.js";
import { statusOf } from "../../src/github/github-client.js";
import { type PublishCheckRunOptions, checkConclusionFor, publishCheckRun } from "../../src/github/publish-check-run.js";
import { ArtifactError, DEFAULT_ZIP_LIMITS } from "../../src/github/read-scorecard-zip.js";
import { DEFAULT_REPO_CONFIG, repoConfigSchema } from "../../src/github/repo-config-schema.js";
import type { LoadedRepoConfig } from "../read-repo-config.js";
import { loadRoundConfigBars } from "../read-round-config-bars.js";
import { upsertCardComment } from "../../src/github/upsert-card-comment.js";
import { renderCommitTrend } from "../../src/history/render-commit-trend.js";
import { type AppDeps, failCheckOnConfig, loadRepoConfig } from "./app-deps.js";
import { addCommitTrend } from "../add-commit-trend.js";
import { addCardLink } from "../add-card-link.js";
import { installationOf } from "./intake-delivery.js";
import { parsePayload } from "../payloads/parse-payload.js";
import { pullRequestInfoSchema } from "../payloads/pull-request-info-schema.js";
import { workflowRunPayloadSchema } from "../payloads/workflow-run-payload.js";
import { resolveRunTarget } from "../resolve-run-target.js";
import { isNotOlder, readRunStamp, stampCardComment } from "../stamp-card-comment.js";
import { leaderboardLane, mainLane, pullRequestLane, workflowRunWorkKey } from "../store/derive-work-key.js";
import type { JobContext, WorkRequest } from "../work/app-work.js";
import { openJob } from "./open-job.js";
import { requiredCheckDocsUrl } from "../warn-unpinned-check.js";

type CheckTarget = Omit<PublishCheckRunOptions, "state" | "title" | "summary">;

function describeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const status = statusOf(error);
  return `${status === null ? "" : `GitHub answered ${status}: `}${message.split("\n")[0] ?? ""}`;
}

const postCardSchema = workflowRunPayloadSchema.extend({ installationId: z.number().int() });
type PostCardPayload = z.output<typeof postCardSchema>;

// `source` (which file was read) came with #23: a job stored before it has none.
const sourceSchema = z.object({ repository: z.string(), path: z.string(), ownersDefaults: z.boolean() }).nullable().default(null);
const configResultSchema = z.union([
  z.object({ ok: z.literal(true), config: repoConfigSchema, source: sourceSchema }),
  z.object({ ok: z.literal(false), problems: z.array(z.string()), source: sourceSchema }),
]);
const publishCardSchema = postCardSchema.extend({
  target: z.object({ pull: pullRequestInfoSchema, headSha: z.string(), externalId: z.string().nullable(), trusted: z.boolean() }),
  config: configResultSchema,
});
type PublishCardPayload = z.output<typeof publishCardSchema>;

/**
 * workflow_run.completed: stores the card's work, keyed by the run and its attempt. Nothing is asked of
 * GitHub before the delivery is answered: the job reads the config, finds the pull request and posts.
 */
export function intakeWorkflowRun(context: Context<"workflow_run.completed">): WorkRequest | string {
  const parsed = parsePayload(context, workflowRunPayloadSchema);
  if (!parsed) return "the payload is not a workflow run the app can read";
  const installationId = installationOf(context);
  if (installationId === null) return "the delivery names no installation";
  const run = parsed.payload.workflow_run;
  const payload: PostCardPayload = { ...parsed.payload, installationId };
  return {
    task: "post-card",
    payload,
    key: workflowRunWorkKey(`${parsed.repo.owner}/${parsed.repo.repo}`, run.id, run.run_attempt),
    // The pull request is found by the job; the card itself is posted on its lane (publish-card).
    lane: null,
    deliveryId: context.id,
  };
}

/**
 * The first half of a card's work: is this the scoring workflow, and whose pull request is it? Then the card goes to that pull request's
 * lane.
 */
export function postCardJob(deps: AppDeps) {
  return async (raw: unknown, job: JobContext): Promise<void> => {
    const opened = await openJob(deps, postCardSchema, raw, job);
    if (!opened) return;
    const { payload, repo, client } = opened;
    const run = payload.workflow_run;
    const config = await loadRepoConfig(client, repo);
    const workflow = config.ok ? config.config.workflow : DEFAULT_REPO_CONFIG.workflow;
    const watch = config.ok ? (config.config.watch ?? null) : null;
    if (watch && posix.basename(run.path) === watch.workflow && watch.workflow !== workflow) {
      // The watch workflow's card is main's, not a pull request's: it goes to main's series (read-watch-card.ts).
      await job.submit({
        task: "watch-card",
        payload: { ...payload, watch },
        key: `${job.key}:watch`,
        lane: mainLane(`${repo.owner}/${repo.repo}`),
        deliveryId: job.deliveryId,
      });
      return;
    }
    if (posix.basename(run.path) !== workflow) return;
    const appId = await deps.appId();
    const target = await resolveRunTarget(
      client,
      repo,
      {
        id: run.id,
        event: run.event,
        headSha: run.head_sha,
        headBranch: run.head_branch ?? null,
        headRepo: run.head_repository?.full_name ?? null,
        title: run.display_title ?? run.name ?? "",
      },
      appId,
    );
    if (!target) {
      job.log.info({ work: job.key, run: run.id }, "no open pull request has this run's commit as its head; nothing to post");
      return;
    }
    const next: PublishCardPayload = { ...payload, target: { ...target, externalId: target.externalId ?? null }, config };
    await job.submit({
      task: "publish-card",
      payload: next,
      key: `${job.key}:publish`,
      lane: pullRequestLane(`${repo.owner}/${repo.repo}`, target.pull.number),
      deliveryId: job.deliveryId,
    });
  };
}

/** The visible trace of a card the app gave up on; if GitHub refuses this too, the log keeps it. */
async function leaveFailureOnCheck(
  job: JobContext,
  client: GitHubClient,
  check: CheckTarget,
  runId: number,
  reason: string,
): Promise<void> {
  try {
    await publishCheckRun(client, {
      ...check,
      state: { status: "completed", conclusion: "failure" },
      title: "The card could not be posted",
      summary:
        `The card could not be posted: ${reason}.\n\n` +
        `Redeliver the workflow_run delivery \`${job.deliveryId ?? "?"}\` (the app's settings, Advanced, Recent deliveries) or ` +
        `comment \`/rescore\` on the pull request.`,
    });
  } catch (traceError) {
    job.log.error({ work: job.key, run: runId }, `the check could not be marked failed either: ${describeError(traceError)}`);
  }
}

async function refuseArtifact(client: GitHubClient, check: CheckTarget, problem: string, runPage: string): Promise<void> {
  await publishCheckRun(client, {
    ...check,
    state: { status: "completed", conclusion: "failure" },
    title: "The score card artifact was refused",
    summary: `${problem}\n\nRun: ${runPage}`,
  });
}

/**
 * The card of a finished run, on its pull request's lane (one job at a time per pull request): the
 * comment and the check. A transient GitHub failure throws, and the queue tries again later (across
 * restarts); on the last attempt the check says the card could not be posted, naming the delivery.
 */
export function publishCardJob(deps: AppDeps) {
  return async (raw: unknown, job: JobContext): Promise<void> => {
    const opened = await openJob(deps, publishCardSchema, raw, job);
    if (!opened) return;
    const { payload, repo, client } = opened;
    const run = payload.workflow_run;
    const { headSha, externalId } = payload.target;
    const check: CheckTarget = {
      ...repo,
      appId: await deps.appId(),
      headSha,
      ...(run.html_url ? { detailsUrl: run.html_url } : {}),
      ...(externalId ? { externalId } : {}),
    };
    try {
      await publishCard(deps, job, client, repo, payload, check);
    } catch (error) {
      const reason = describeError(error);
      if (job.isFinalAttempt) {
        job.log.error(
          { work: job.key, run: run.id },
          `the card of run ${run.id} could not be posted: ${reason}; redeliver delivery ${job.deliveryId ?? "?"} or comment /rescore`,
        );
        await leaveFailureOnCheck(job, client, check, run.id, reason);
      }
      throw error;
    }
  };
}

async function publishCard(
  deps: AppDeps,
  job: JobContext,
  client: GitHubClient,
  repo: RepoRef,
  payload: PublishCardPayload,
  target: CheckTarget,
): Promise<void> {
  let check = target;
  const run = payload.workflow_run;
  const { pull, headSha, trusted } = payload.target;
  const config: LoadedRepoConfig = payload.config;
  const runPage = run.html_url ?? `run ${run.id}`;
  if (!config.ok) {
    await failCheckOnConfig(client, check, config);
    return;
  }
  if (!trusted) {
    // The artifact is not even read: the fork's workflow could have written any card it liked. A
    // commit a scored run already concluded keeps that verdict: a fork's run must not reset it.
    await publishCheckRun(client, {
      ...check,
      unlessConcluded: true,
      state: { status: "completed", conclusion: "action_required" },
      title: "A maintainer must /rescore",
      summary:
        `This run came from a fork's own workflow (${runPage}), so its score card is not trusted. ` +
        "A maintainer comments `/rescore` to score this exact commit with the default branch's workflow.",
    });
    return;
  }
  let downloaded;
  try {
    downloaded = await downloadScorecardZip(client, { ...repo, runId: run.id });
  } catch (error) {
    if (!(error instanceof ArtifactError)) throw error;
    await refuseArtifact(client, check, error.message, runPage);
    return;
  }
  if (!downloaded) {
    await publishCheckRun(client, {
      ...check,
      state: { status: "completed", conclusion: "failure" },
      title: "Scoring did not finish",
      summary:
        `scoring did not finish: the run ended \`${run.conclusion ?? "without a conclusion"}\` without uploading a score card. See ` +
        `${runPage}`,
    });
    return;
  }
  // Each scenario's bar as the default branch's round config states it, never as the card (or the pull request's copy) does.
  const round = await loadRoundConfigBars(client, repo, config.config.roundConfig);
  if (!round.ok) {
    await publishCheckRun(client, {
      ...check,
      state: { status: "completed", conclusion: "failure" },
      title: `Invalid ${round.path}`,
      summary: [
        `\`${round.path}\` on the default branch, which \`roundConfig\` in the app's settings names for each scenario's bar, is invalid:`,
        "",
        ...round.problems.map((problem) => `- ${problem}`),
      ].join("\n"),
    });
    return;
  }
  job.log.info({ work: job.key, run: run.id, bytes: downloaded.zip.byteLength }, `reading the card of run ${run.id} off the event loop`);
  const card = await deps.cards.read({
    zip: downloaded.zip,
    source: downloaded.source,
    limits: DEFAULT_ZIP_LIMITS,
    gate: { ...config.config.gate, ...(round.bars ? { roundConfig: round.bars } : {}) },
    docsBaseUrl: deps.docsBaseUrl,
  });
  job.log.info({ work: job.key, run: run.id, ok: card.ok }, `read the card of run ${run.id}`);
  if (!card.ok) {
    await refuseArtifact(client, check, card.problem, runPage);
    return;
  }
  // Every posted card is recorded before it is posted: a retry records the same row again.
  const repository = `${repo.owner}/${repo.repo}`;
  const history = deps.store.history;
  let trend: string | null = null;
  // The card's page (the whole card, what the comment folds or cuts included) when the app serves pages.
  let cardUrl: string | null = null;
  if (history) {
    await history.record({
      ...card.facts,
      repository,
      pullRequest: pull.number,
      headSha,
      runId: run.id,
      runAttempt: run.run_attempt,
      runUrl: run.html_url ?? null,
    });
    const cardId = await history.recordDocument({
      repository,
      runId: run.id,
      runAttempt: run.run_attempt,
      pullRequest: pull.number,
      headSha,
      card: card.cardGzip,
      facts: card.documentFacts,
    });
    if (deps.pagesUrl) cardUrl = `${deps.pagesUrl}/cards/${cardId}`;
    const points = await history.trend(repository, pull.number);
    trend = renderCommitTrend(
      points.map((point) => ({
        headSha: point.headSha,
        roundScore: point.roundScore,
        gatePassed: point.gate.passed,
        failureKind: point.failure?.kind ?? null,
      })),
      { currentSha: headSha },
    );
  }
  // The check is on the whole commit: what patch-paths left out is said where the verdict is read.
  const title = card.filesLeftOut > 0 ? `${card.headline}; ${card.filesLeftOut} changed files not scored (patch-paths)` : card.headline;
  const conclusion = checkConclusionFor(card.outcome);
  const summary = addCardLink(addCommitTrend(card.checkSummary, trend), cardUrl);
  // The check's "View more details" opens the card's page rather than the workflow run, when there is one.
  if (cardUrl) check = { ...check, detailsUrl: cardUrl };
  let published = false;
  if (pull.headSha === headSha) {
    const stamp = { runId: run.id, startedAt: run.run_started_at ?? run.created_at };
    const posted = await upsertCardComment(client, {
      ...repo,
      issueNumber: pull.number,
      body: stampCardComment(addCardLink(addCommitTrend(card.comment, trend), cardUrl), stamp),
      shouldReplace: (existing) => isNotOlder(stamp, readRunStamp(existing)),
    });
    if (posted.action === "kept") {
      // A newer run's card is on the pull request and its verdict is the commit's newest check run. This
      // run's own check is still concluded, never left queued, but only the open one bound to it.
      job.log.info({ pull: pull.number, run: run.id }, "a newer run's card is already posted; this older one only concludes its own check");
      await publishCheckRun(client, {
        ...check,
        state: { status: "completed", conclusion },
        title: `${title} (an older run: a newer run's card is on the pull request)`,
        summary: `A newer run's card is on the pull request; this is the card of run ${run.id} (${runPage}).\n\n${summary}`,
        updateOnly: true,
      });
      published = true;
    }
  } else {
    job.log.info(
      { pull: pull.number, run: run.id },
      "the pull request moved on from the scored commit; the card goes to that commit's check only",
    );
  }
  // A job run again (its end was not recorded before a crash or an outage) leaves the one check it published.
  if (!published) {
    // The verdict is only worth requiring if branch protection counts this app's check alone: said under the card when not.
    const warning = await deps.requiredCheck.warningFor(
      client,
      { ...repo, branch: payload.repository.default_branch, appId: await deps.appId(), docsUrl: requiredCheckDocsUrl(deps.docsBaseUrl) },
      job.log,
    );
    await publishCheckRun(client, {
      ...check,
      state: { status: "completed", conclusion },
      title,
      summary,
      ...(warning ? { text: warning } : {}),
      unlessSame: true,
    });
  }
  if (history && config.config.leaderboard) {
    await job.submit({
      task: "leaderboard",
      payload: { installationId: payload.installationId, owner: repo.owner, repo: repo.repo },
      key: `leaderboard:${job.key}`,
      lane: leaderboardLane(repository),
      deliveryId: job.deliveryId,
    });
  }
}
