import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ConfigError } from "../src/vocabulary/config-error.js";
import type { GitHubClient } from "../src/github/github-client.js";
import type { Logger } from "../src/logger.js";
import { fetchPullRequestPatch } from "../src/github/fetch-pull-request-patch.js";
import type { CardSource } from "../src/scorecard/build-scorecard.js";
import { MAX_LISTED_LEFT_OUT } from "../src/scorecard/scorecard-schema.js";
import type { ActionContext } from "./action-context.js";
import type { ActionSettings } from "./action-settings.js";
import { INPUTS } from "./input-helper.js";
import { requireToken } from "./require-token.js";

export interface PullRequestPatchRequest {
  settings: ActionSettings;
  paths: string[];
  source: CardSource;
  context: ActionContext;
  createClient: (token: string) => GitHubClient;
  logger: Logger;
}

export interface WrittenPullRequestPatch {
  path: string;
  /** What patch-paths left out, for the card: null when no globs were given. */
  patchFilter: NonNullable<CardSource["patchFilter"]> | null;
}

/** patch-from-pr: the diff of the commit the card is about, written to a file for loadRound. */
export async function writePullRequestPatch(request: PullRequestPatchRequest): Promise<WrittenPullRequestPatch> {
  const { settings, source, context, logger } = request;
  const label = `input "${INPUTS.patchFromPr}"`;
  if (!context.repository || source.pullRequest === null || source.headSha === null) {
    throw new ConfigError(
      `${label}: expected a pull_request event or workflow_dispatch inputs pr and sha, got a ${context.eventName || "unknown"} event ` +
        `without them`,
    );
  }
  const patch = await fetchPullRequestPatch(request.createClient(requireToken(settings, "that may read the pull request")), {
    ...context.repository,
    pullNumber: source.pullRequest,
    headSha: source.headSha,
    paths: request.paths,
    label,
    logger,
  });
  // Not under out-dir: the patch's path is part of the config the card's configHash covers, and shards
  // that each pick their own out-dir must still agree on it.
  const folder = join(context.runnerTemp, "speedgate-patches");
  await mkdir(folder, { recursive: true });
  const path = join(folder, `pull-request-${source.pullRequest}-${source.headSha}.patch`);
  await writeFile(path, patch.bytes);
  logger.info(
    `Fetched the diff of #${source.pullRequest} at ${source.headSha} (${patch.files.length} files, ${patch.bytes.length} bytes) to ${path}`,
  );
  if (patch.leftOut.length > 0)
    logger.warn(
      `patch-paths left out ${patch.leftOut.length} changed files, which are not scored: ${patch.leftOut.slice(0, 20).join(", ")}`,
    );
  const patchFilter =
    request.paths.length > 0
      ? { globs: request.paths, leftOut: patch.leftOut.slice(0, MAX_LISTED_LEFT_OUT), leftOutTotal: patch.leftOut.length }
      : null;
  return { path, patchFilter };
}
