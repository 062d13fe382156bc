import { z } from "zod";
import type { GitHubClient, RepoRef } from "../../src/github/github-client.js";
import { statusOf } from "../../src/github/github-client.js";
import { LEADERBOARD_MARKER, renderLeaderboard } from "../../src/history/render-leaderboard.js";
import { type AppDeps, type InstallationOctokit, loadRepoConfig } from "./app-deps.js";
import type { CardHistory } from "../store/app-store.js";
import type { JobContext } from "../work/app-work.js";
import { readJobPayload } from "../work/read-job-payload.js";

const leaderboardSchema = z.object({ installationId: z.number().int(), owner: z.string().min(1), repo: z.string().min(1) });

export const LEADERBOARD_TITLE = "speedgate leaderboard";

const PIN_ISSUE = `mutation speedgatePinIssue($issueId: ID!) {
  pinIssue(input: { issueId: $issueId }) {
    issue { number isPinned }
  }
}`;

/** GitHub's open pull requests, so the board stays right even for a close or reopen the app never heard of. */
async function listOpenPullNumbers(client: GitHubClient, repo: RepoRef): Promise<Set<number>> {
  const open = new Set<number>();
  for (let page = 1; page <= 50; page++) {
    const response = await client.request("GET /repos/{owner}/{repo}/pulls", { ...repo, state: "open", per_page: 100, page });
    const items = Array.isArray(response.data) ? (response.data as Array<{ number?: unknown }>) : [];
    for (const item of items) if (typeof item.number === "number") open.add(item.number);
    if (items.length < 100) break;
  }
  return open;
}

async function reconcilePullStates(history: CardHistory, client: GitHubClient, repo: RepoRef): Promise<void> {
  const repository = `${repo.owner}/${repo.repo}`;
  const open = await listOpenPullNumbers(client, repo);
  for (const pull of await history.scoredPulls(repository)) {
    if (pull.open !== open.has(pull.number))
      await history.setPullState({ repository, number: pull.number, state: open.has(pull.number) ? "open" : "closed", headSha: null });
  }
}

/** The app's own leaderboard issue, found by its marker when the database lost track of it (a crash right after opening it). */
async function findBoardIssue(deps: AppDeps, client: GitHubClient, repo: RepoRef): Promise<{ number: number; nodeId: string } | null> {
  const creator = `${await deps.appSlug()}[bot]`;
  const response = await client.request("GET /repos/{owner}/{repo}/issues", { ...repo, state: "all", creator, per_page: 100 });
  const items = Array.isArray(response.data)
    ? (response.data as Array<{ number?: unknown; node_id?: unknown; body?: unknown; pull_request?: unknown }>)
    : [];
  const found = items.find(
    (item) => item.pull_request === undefined && typeof item.body === "string" && item.body.startsWith(LEADERBOARD_MARKER),
  );
  return found && typeof found.number === "number" && typeof found.node_id === "string"
    ? { number: found.number, nodeId: found.node_id }
    : null;
}

async function editBoardIssue(client: GitHubClient, repo: RepoRef, number: number, body: string): Promise<{ nodeId: string } | null> {
  try {
    const response = await client.request("PATCH /repos/{owner}/{repo}/issues/{issue_number}", { ...repo, issue_number: number, body });
    const nodeId = (response.data as { node_id?: unknown }).node_id;
    return { nodeId: typeof nodeId === "string" ? nodeId : "" };
  } catch (error) {
    // Deleted or transferred: a new one is opened.
    if (statusOf(error) === 404 || statusOf(error) === 410) return null;
    throw error;
  }
}

/**
 * Pins the board (GraphQL only: REST has no pin endpoint). A repository pins at most three issues; a
 * refusal is logged and tried again on the next update, the board itself is kept up to date either way.
 */
async function pinBoardIssue(octokit: InstallationOctokit, job: JobContext, nodeId: string): Promise<boolean> {
  try {
    const result = await octokit.graphql<{ pinIssue?: { issue?: { isPinned?: boolean } | null } | null }>(PIN_ISSUE, { issueId: nodeId });
    return result.pinIssue?.issue?.isPinned === true;
  } catch (error) {
    job.log.warn(
      { work: job.key },
      `the leaderboard issue could not be pinned: ${(error instanceof Error ? error.message : String(error)).split("\n")[0] ?? ""}`,
    );
    return false;
  }
}

/**
 * Keeps a repository's leaderboard issue (`leaderboard: true` in .github/speedgate-app.yml) up to date: the
 * round score of each open pull request (the lower median of its newest commit's runs), from the card history. One job at a time per
 * repository (its own lane), so the issue is opened once however many cards land together.
 */
export function updateLeaderboardJob(deps: AppDeps) {
  return async (raw: unknown, job: JobContext): Promise<void> => {
    const payload = readJobPayload(leaderboardSchema, raw, job);
    const history = deps.store.history;
    if (!payload || !history) return;
    const repo: RepoRef = { owner: payload.owner, repo: payload.repo };
    const repository = `${repo.owner}/${repo.repo}`;
    const octokit = await deps.octokit(payload.installationId);
    const config = await loadRepoConfig(octokit, repo);
    if (!config.ok || !config.config.leaderboard) return;
    await reconcilePullStates(history, octokit, repo);
    const entries = (await history.leaderboard(repository)).map((card) => ({
      pullRequest: card.pullRequest,
      headSha: card.headSha,
      roundScore: card.roundScore,
      interval: card.interval,
      gatePassed: card.gate.passed,
      failureKind: card.failure?.kind ?? null,
      runUrl: card.runUrl,
      recordedAt: card.recordedAt,
      runs: card.runs,
      commits: card.commits,
    }));
    const body = renderLeaderboard({ repository, entries, updatedAt: new Date(deps.now()) });
    const known = await history.leaderboardIssue(repository);
    let issue: { number: number; nodeId: string; pinned: boolean } | null = null;
    if (known) {
      const edited = await editBoardIssue(octokit, repo, known.number, body);
      if (edited) issue = { number: known.number, nodeId: edited.nodeId, pinned: known.pinned };
    }
    if (!issue) {
      const found = await findBoardIssue(deps, octokit, repo);
      if (found && (await editBoardIssue(octokit, repo, found.number, body))) {
        issue = { ...found, pinned: false };
      } else {
        const created = await octokit.request("POST /repos/{owner}/{repo}/issues", { ...repo, title: LEADERBOARD_TITLE, body });
        issue = { number: created.data.number, nodeId: created.data.node_id, pinned: false };
        job.log.info({ work: job.key, issue: issue.number }, `opened the leaderboard issue #${issue.number} of ${repository}`);
      }
    }
    // Recorded before pinning: a crash in between finds the issue again instead of opening another.
    await history.recordLeaderboardIssue(repository, { number: issue.number, pinned: issue.pinned });
    if (!issue.pinned && issue.nodeId !== "" && (await pinBoardIssue(octokit, job, issue.nodeId))) {
      await history.recordLeaderboardIssue(repository, { number: issue.number, pinned: true });
    }
  };
}
