import { posix } from "node:path";
import type { Context } from "probot";
import { describeVerdict } from "../../src/scorecard/describe-card.js";
import { renderMarkdown } from "../../src/scorecard/render-markdown.js";
import { downloadScorecardArtifact } from "../../src/github/download-scorecard-artifact.js";
import type { GitHubClient, RepoRef } from "../../src/github/github-client.js";
import { statusOf } from "../../src/github/github-client.js";
import { type PublishCheckRunOptions, publishCheckRun } from "../../src/github/publish-check-run.js";
import { ArtifactError } from "../../src/github/read-scorecard-zip.js";
import { regateScorecard } from "../../src/github/regate-scorecard.js";
import { DEFAULT_REPO_CONFIG } from "../../src/github/repo-config-schema.js";
import { upsertCardComment } from "../../src/github/upsert-card-comment.js";
import { type AppDeps, clientOf, failCheckOnConfig, loadRepoConfig } from "../app-deps.js";
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

  await deps.queue.run(`${repo.owner}/${repo.repo}#${pull.number}`, async () => {
    if (!config.ok) {
      await failCheckOnConfig(client, check, config.problems);
      return;
    }
    if (!trusted) {
      // The artifact is not even read: the fork's workflow could have written any card it liked.
      await publishCheckRun(client, {
        ...check,
        state: { status: "completed", conclusion: "action_required" },
        title: "A maintainer must /rescore",
        summary:
          `This run came from a fork's own workflow (${runPage}), so its score card is not trusted. ` +
          "A maintainer comments `/rescore` to score this exact commit with the default branch's workflow.",
      });
      return;
    }
    let card;
    try {
      card = await downloadScorecardArtifact(client, { ...repo, runId: run.id });
    } catch (error) {
      if (!(error instanceof ArtifactError)) throw error;
      await publishCheckRun(client, {
        ...check,
        state: { status: "completed", conclusion: "failure" },
        title: "The score card artifact was refused",
        summary: `${error.message}\n\nRun: ${runPage}`,
      });
      return;
    }
    if (!card) {
      await publishCheckRun(client, {
        ...check,
        state: { status: "completed", conclusion: "failure" },
        title: "Scoring did not finish",
        summary: `scoring did not finish: the run ended \`${run.conclusion ?? "without a conclusion"}\` without uploading a score card. See ${runPage}`,
      });
      return;
    }
    const regated = regateScorecard(card, config.config.gate);
    const markdown = renderMarkdown(regated);
    const verdict = describeVerdict(regated);
    if (pull.headSha === headSha) {
      const stamp = { runId: run.id, startedAt: run.run_started_at ?? run.created_at };
      const posted = await upsertCardComment(client, {
        ...repo,
        issueNumber: pull.number,
        body: stampCardComment(markdown, stamp),
        shouldReplace: (existing) => isNotOlder(stamp, readRunStamp(existing)),
      });
      if (posted.action === "kept") {
        // A newer run already concluded this commit; its verdict must stay the newest check run.
        context.log.info({ pull: pull.number, run: run.id }, "a newer run's card is already posted; this older one is dropped");
        return;
      }
    } else {
      context.log.info({ pull: pull.number, run: run.id }, "the pull request moved on from the scored commit; the card goes to that commit's check only");
    }
    await publishCheckRun(client, {
      ...check,
      state: { status: "completed", conclusion: verdict.passed ? "success" : "failure" },
      title: verdict.headline,
      summary: markdown,
    });
  });
}
