import { posix } from "node:path";
import type { Context } from "probot";
import { describeVerdict } from "../../src/scorecard/describe-card.js";
import { renderMarkdown } from "../../src/scorecard/render-markdown.js";
import { downloadScorecardArtifact } from "../../src/github/download-scorecard-artifact.js";
import { publishCheckRun } from "../../src/github/publish-check-run.js";
import { ArtifactError } from "../../src/github/read-scorecard-zip.js";
import { regateScorecard } from "../../src/github/regate-scorecard.js";
import { DEFAULT_REPO_CONFIG } from "../../src/github/repo-config-schema.js";
import { upsertCardComment } from "../../src/github/upsert-card-comment.js";
import { type AppDeps, clientOf, failCheckOnConfig, loadRepoConfig } from "../app-deps.js";
import { resolveRunTarget } from "../resolve-run-target.js";
import { isNotOlder, readRunStamp, stampCardComment } from "../stamp-card-comment.js";

/** workflow_run.completed of the scoring workflow: the card goes to its pull request's comment and check. */
export function postScorecard(deps: AppDeps) {
  return async (context: Context<"workflow_run.completed">): Promise<void> => {
    const run = context.payload.workflow_run;
    const repo = context.repo();
    const client = clientOf(context);
    const config = await loadRepoConfig(context);
    const workflow = config.ok ? config.config.workflow : DEFAULT_REPO_CONFIG.workflow;
    if (posix.basename(run.path) !== workflow) return;

    const appId = await deps.appId();
    const target = await resolveRunTarget(
      client,
      repo,
      {
        id: run.id,
        event: run.event,
        headSha: run.head_sha,
        headBranch: run.head_branch,
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
    const check = { ...repo, appId, headSha, detailsUrl: run.html_url, ...(externalId ? { externalId } : {}) };

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
            `This run came from a fork's own workflow (${run.html_url}), so its score card is not trusted. ` +
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
          summary: `${error.message}\n\nRun: ${run.html_url}`,
        });
        return;
      }
      if (!card) {
        await publishCheckRun(client, {
          ...check,
          state: { status: "completed", conclusion: "failure" },
          title: "Scoring did not finish",
          summary: `scoring did not finish: the run ended \`${run.conclusion ?? "without a conclusion"}\` without uploading a score card. See ${run.html_url}`,
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
  };
}
