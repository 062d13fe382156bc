import { posix } from "node:path";
import type { Context } from "probot";
import { downloadScorecardZip } from "../../src/github/download-scorecard-artifact.js";
import type { GitHubClient, RepoRef } from "../../src/github/github-client.js";
import { statusOf } from "../../src/github/github-client.js";
import { type PublishCheckRunOptions, publishCheckRun } from "../../src/github/publish-check-run.js";
import { ArtifactError, DEFAULT_ZIP_LIMITS } from "../../src/github/read-scorecard-zip.js";
import { DEFAULT_REPO_CONFIG } from "../../src/github/repo-config-schema.js";
import { upsertCardComment } from "../../src/github/upsert-card-comment.js";
import { type AppDeps, clientOf, failCheckOnConfig, loadRepoConfig, pullKey } from "../app-deps.js";
import { parsePayload } from "../payloads/parse-payload.js";
import { type WorkflowRunPayload, workflowRunPayloadSchema } from "../payloads/workflow-run-payload.js";
import { resolveRunTarget } from "../resolve-run-target.js";
import { retryDelivery } from "../retry-delivery.js";
import { isNotOlder, readRunStamp, stampCardComment } from "../stamp-card-comment.js";

type CheckTarget = Omit<PublishCheckRunOptions, "state" | "title" | "summary">;

function describeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const status = statusOf(error);
  return `${status === null ? "" : `GitHub answered ${status}: `}${message.split("\n")[0] ?? ""}`;
}

/**
 * workflow_run.completed of the scoring workflow: the card goes to its pull request's comment and
 * check. A GitHub outage is waited out (bot/retry-delivery.ts); when the app gives up, the check
 * says so, naming the delivery to redeliver, so a lost card is never silent.
 */
export function postScorecard(deps: AppDeps) {
  return async (context: Context<"workflow_run.completed">): Promise<void> => {
    const parsed = parsePayload(context, workflowRunPayloadSchema);
    if (!parsed) return;
    const run = parsed.payload.workflow_run;
    const client = clientOf(context);
    let check: CheckTarget | null = null;
    try {
      const { attempts } = await retryDelivery(
        deps.deliveryRetry,
        {
          onRetry: (attempt, error, delayMs) => {
            context.log.warn(
              { delivery: context.id, run: run.id, attempt },
              `posting the card of run ${run.id} failed (attempt ${attempt}): ${describeError(error)}; trying again in ${Math.round(delayMs / 1000)} s`,
            );
          },
        },
        async () => {
          await postOnce(deps, context, parsed.repo, run, (target) => {
            check = target;
          });
        },
      );
      if (attempts > 1) context.log.info({ delivery: context.id, run: run.id, attempts }, `the card of run ${run.id} was handled on attempt ${attempts}`);
    } catch (error) {
      const reason = describeError(error);
      context.log.error(
        { delivery: context.id, run: run.id },
        `the card of run ${run.id} could not be posted: ${reason}; redeliver delivery ${context.id} or comment /rescore`,
      );
      if (check) await leaveFailureOnCheck(context, client, check, run.id, reason);
      throw error;
    }
  };
}

/** The visible trace of a card the app gave up on; if GitHub refuses this too, the log keeps it. */
async function leaveFailureOnCheck(context: Context, client: GitHubClient, check: CheckTarget, runId: number, reason: string): Promise<void> {
  try {
    await publishCheckRun(client, {
      ...check,
      state: { status: "completed", conclusion: "failure" },
      title: "The card could not be posted",
      summary:
        `The card could not be posted: ${reason}.\n\n` +
        `Redeliver the workflow_run delivery \`${context.id}\` (the app's settings, Advanced, Recent deliveries) or comment \`/rescore\` on the pull request.`,
    });
  } catch (traceError) {
    context.log.error({ delivery: context.id, run: runId }, `the check could not be marked failed either: ${describeError(traceError)}`);
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

async function postOnce(
  deps: AppDeps,
  context: Context<"workflow_run.completed">,
  repo: RepoRef,
  run: WorkflowRunPayload["workflow_run"],
  onTarget: (check: CheckTarget) => void,
): Promise<void> {
  const client = clientOf(context);
  const config = await loadRepoConfig(context);
  const workflow = config.ok ? config.config.workflow : DEFAULT_REPO_CONFIG.workflow;
  if (posix.basename(run.path) !== workflow) return;
  const runPage = run.html_url ?? `run ${run.id}`;

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
    context.log.info({ run: run.id }, "no open pull request has this run's commit as its head; nothing to post");
    return;
  }
  const { pull, headSha, externalId, trusted } = target;
  const check: CheckTarget = { ...repo, appId, headSha, ...(run.html_url ? { detailsUrl: run.html_url } : {}), ...(externalId ? { externalId } : {}) };
  onTarget(check);

  await deps.queue.run(pullKey(repo, pull.number), async () => {
    if (!config.ok) {
      await failCheckOnConfig(client, check, config.problems);
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
        summary: `scoring did not finish: the run ended \`${run.conclusion ?? "without a conclusion"}\` without uploading a score card. See ${runPage}`,
      });
      return;
    }
    context.log.info({ delivery: context.id, run: run.id, bytes: downloaded.zip.byteLength }, `reading the card of run ${run.id} off the event loop`);
    const card = await deps.cards.read({ zip: downloaded.zip, source: downloaded.source, limits: DEFAULT_ZIP_LIMITS, gate: config.config.gate });
    context.log.info({ delivery: context.id, run: run.id, ok: card.ok }, `read the card of run ${run.id}`);
    if (!card.ok) {
      await refuseArtifact(client, check, card.problem, runPage);
      return;
    }
    // The check is on the whole commit: what patch-paths left out is said where the verdict is read.
    const title = card.filesLeftOut > 0 ? `${card.headline}; ${card.filesLeftOut} changed files not scored (patch-paths)` : card.headline;
    const conclusion = card.passed ? "success" : "failure";
    if (pull.headSha === headSha) {
      const stamp = { runId: run.id, startedAt: run.run_started_at ?? run.created_at };
      const posted = await upsertCardComment(client, {
        ...repo,
        issueNumber: pull.number,
        body: stampCardComment(card.comment, stamp),
        shouldReplace: (existing) => isNotOlder(stamp, readRunStamp(existing)),
      });
      if (posted.action === "kept") {
        // A newer run's card is on the pull request and its verdict is the commit's newest check run. This
        // run's own check is still concluded, never left queued, but only the open one bound to it.
        context.log.info({ pull: pull.number, run: run.id }, "a newer run's card is already posted; this older one only concludes its own check");
        await publishCheckRun(client, {
          ...check,
          state: { status: "completed", conclusion },
          title: `${title} (an older run: a newer run's card is on the pull request)`,
          summary: `A newer run's card is on the pull request; this is the card of run ${run.id} (${runPage}).\n\n${card.checkSummary}`,
          updateOnly: true,
        });
        return;
      }
    } else {
      context.log.info({ pull: pull.number, run: run.id }, "the pull request moved on from the scored commit; the card goes to that commit's check only");
    }
    await publishCheckRun(client, { ...check, state: { status: "completed", conclusion }, title, summary: card.checkSummary });
  });
}
