import { ConfigError } from "../src/vocabulary/config-error.js";
import type { CommitsRequest } from "../src/config/resolve-round-commits.js";
import { getPullRequest } from "../src/github/find-pull-request-for-commit.js";
import type { GitHubClient } from "../src/github/github-client.js";
import { fetchMissingCommits } from "../src/git/fetch-missing-commits.js";
import { GitError } from "../src/git/run-git.js";
import type { Logger } from "../src/logger.js";
import type { ActionContext } from "./action-context.js";
import type { RunSettings } from "./action-settings.js";
import { INPUTS } from "./input-helper.js";
import { requireToken } from "./require-token.js";

function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function sha(value: unknown): string | null {
  return typeof value === "string" && /^[0-9a-f]{40}$/i.test(value.trim()) ? value.trim().toLowerCase() : null;
}

/** The base and head the event names, as far as its payload says; a dispatched run may name its pull request only. */
interface EventCommits {
  base: string | null;
  head: string | null;
  /** A dispatched run for a pull request without a `base` input: the base is read from the pull request. */
  pullRequest: number | null;
  /** Where they came from, for the job log. */
  from: string;
}

/**
 * The event's own commits: a pull_request (or pull_request_target) event's base and head, the app's
 * workflow_dispatch inputs (`pr`, `sha`, `base`), or a workflow_run's pull request. Null for events
 * that are not about a pull request (a push, a manual dispatch without inputs).
 */
export function readEventCommits(context: ActionContext): EventCommits | null {
  const payload = context.payload;
  const pull = field(payload, "pull_request");
  if (pull !== undefined) {
    return {
      base: sha(field(field(pull, "base"), "sha")),
      head: sha(field(field(pull, "head"), "sha")),
      pullRequest: null,
      from: `the ${context.eventName} event's pull request`,
    };
  }
  if (context.eventName === "workflow_dispatch") {
    const inputs = field(payload, "inputs");
    const pr = field(inputs, "pr");
    const number = typeof pr === "number" ? pr : typeof pr === "string" && /^\d+$/.test(pr.trim()) ? Number(pr.trim()) : null;
    const head = sha(field(inputs, "sha"));
    if (number === null && head === null) return null;
    return { base: sha(field(inputs, "base")), head, pullRequest: number, from: "the workflow_dispatch inputs" };
  }
  if (context.eventName === "workflow_run") {
    const pulls = field(field(payload, "workflow_run"), "pull_requests");
    const first: unknown = Array.isArray(pulls) ? pulls[0] : undefined;
    if (first === undefined) return null;
    return {
      base: sha(field(field(first, "base"), "sha")),
      head: sha(field(field(first, "head"), "sha")),
      pullRequest: null,
      from: "the workflow_run's pull request",
    };
  }
  return null;
}

export interface RunCommitsDeps {
  createClient: (token: string) => GitHubClient;
  logger: Logger;
}

/**
 * Whether this run scores commits (base/head mode) rather than a fixed baseline and a patch: no patch
 * input and none in the config, and commits named by base-sha/head-sha or by the event (both of them:
 * an event that names only a head keeps the fixed-baseline mode it always had). Decided
 * before anything is fetched, so the untrusted-code fence knows what the candidate is.
 */
export function scoresCommits(settings: RunSettings, context: ActionContext, configHasPatch: boolean): boolean {
  if (settings.patch.kind !== "config") return false;
  const given = settings.commits;
  if (configHasPatch) {
    if (given.base !== null || given.head !== null) {
      throw new ConfigError(
        `input "${given.base !== null ? INPUTS.baseSha : INPUTS.headSha}": expected no candidate.patch in the round config with ` +
          `base-sha/head-sha: the candidate is the head commit, a fixed baseline with a patch is the other mode; use one or the other`,
      );
    }
    return false;
  }
  if (given.base !== null || given.head !== null) return true;
  // The event must name both: a head and its base (or a pull request to read the base from).
  const event = readEventCommits(context);
  return event !== null && event.head !== null && (event.base !== null || event.pullRequest !== null);
}

/**
 * The commits of a base/head round (scoresCommits said yes). The inputs win over the event's defaults.
 * Missing commits are fetched into the checkout, with the job's token, so a fork's head
 * (refs/pull/N/head) and the base are there whatever the checkout fetched.
 */
export async function resolveRunCommits(settings: RunSettings, context: ActionContext, deps: RunCommitsDeps): Promise<CommitsRequest> {
  const given = settings.commits;
  const event = readEventCommits(context);
  let base = given.base ?? event?.base ?? null;
  const head = given.head ?? event?.head ?? null;
  if (base === null && event?.pullRequest && context.repository) {
    // A dispatch from a workflow that declares no `base` input: the pull request's base as GitHub has it now.
    const pull = await getPullRequest(deps.createClient(requireToken(settings, "that may read the pull request")), {
      ...context.repository,
      pullNumber: event.pullRequest,
    });
    base = pull?.baseSha ?? null;
    if (base) deps.logger.info(`The base of #${event.pullRequest} is ${base} (read from the pull request)`);
  }
  if (base === null || head === null) {
    const missing = base === null ? INPUTS.baseSha : INPUTS.headSha;
    throw new ConfigError(
      `input "${missing}": expected the ${base === null ? "base" : "head"} commit to ` +
        `score${event ? `, which ${event.from} does not name` : ""}; set base-sha and head-sha (or use patch-from-pr for a fixed ` +
        `baseline)`,
    );
  }
  const repoDir = given.repositoryPath ?? context.workspace ?? process.cwd();
  deps.logger.info(
    `Scoring ${head} against its base ${base} ` +
      `(${given.base !== null || given.head !== null ? "inputs base-sha/head-sha" : (event?.from ?? "")}) in ${repoDir}`,
  );
  try {
    await fetchMissingCommits(repoDir, [base, head], { token: settings.githubToken, serverUrl: context.serverUrl, logger: deps.logger });
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    throw new ConfigError(
      `input "${INPUTS.repositoryPath}": expected a clone of the repository holding ${base.slice(0, 12)} and ${head.slice(0, 12)} ` +
        `(actions/checkout with fetch-depth: 0) at ${repoDir}: ${error.message}`,
    );
  }
  return {
    base,
    head,
    repoDir,
    labels: { base: `input "${INPUTS.baseSha}"`, head: `input "${INPUTS.headSha}"`, repo: `input "${INPUTS.repositoryPath}"` },
  };
}
