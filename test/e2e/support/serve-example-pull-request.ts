import { OWNER, REPO } from "../../../harness/fake-github/adjust-payloads.js";
import type { FakeGitHub } from "../../../harness/fake-github/fake-github-server.js";
import { type FakePull, type FakeRepository, serveRepository } from "../../../harness/fake-github/serve-repository.js";
import { type PullRequestHead, headOf, pullRequestSynchronize } from "./runner-events.js";
import { servePullRequestDiffs } from "./serve-pull-request-diffs.js";

export interface ExamplePullRequest {
  /** The runner's event: the pull_request.synchronize example. */
  event: ReturnType<typeof pullRequestSynchronize>;
  head: PullRequestHead;
  /** The fake's pull request, which a test moves to a new head to play a push. */
  pull: FakePull;
  repo: FakeRepository;
  /** Diffs per `base...head`, for the action's patch-from-pr; the test adds them. */
  diffs: Map<string, string>;
  compared: string[];
}

/**
 * The repository of the webhook examples as the app and the action see it through the fake: the
 * example pull request, a collaborator `maintainer` with write permission, no .github/speedgate-app.yml
 * (the defaults), `files` on its default branch, and the compare route for the pull request's diffs.
 */
export function serveExamplePullRequest(fake: FakeGitHub, appId: number, files: Record<string, string> = {}): ExamplePullRequest {
  const event = pullRequestSynchronize();
  const head = headOf(event.payload);
  const pull: FakePull = {
    number: head.number,
    headSha: head.headSha,
    headBranch: head.headBranch,
    headRepo: head.headRepo,
    baseSha: head.baseSha,
    author: head.author,
  };
  const repo = serveRepository(fake, { owner: OWNER, repo: REPO, appId, pulls: [pull], roles: { maintainer: "write" }, files });
  const diffs = new Map<string, string>();
  const { compared } = servePullRequestDiffs(fake, diffs);
  return { event, head, pull, repo, diffs, compared };
}
