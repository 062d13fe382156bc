import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { access, mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { ConfigError } from "../src/config/config-error.js";
import { type LoadedRound, loadRound } from "../src/config/load-round-config.js";
import type { GitHubClient } from "../src/github/github-client.js";
import { createProgressRenderer } from "../src/cli/render-round-progress.js";
import { upsertCardComment } from "../src/github/upsert-card-comment.js";
import type { Logger } from "../src/logger.js";
import type { RoundProgressEvent } from "../src/round/round-progress.js";
import { fetchPullRequestPatch } from "../src/patch/fetch-pull-request-patch.js";
import type { CardSource } from "../src/scorecard/build-scorecard.js";
import { readScorecard } from "../src/scorecard/read-scorecard.js";
import { renderMarkdown } from "../src/scorecard/render-markdown.js";
import type { Scorecard } from "../src/scorecard/scorecard-schema.js";
import { findCardFiles } from "../src/shard/find-card-files.js";
import { mergeScorecards } from "../src/shard/merge-scorecards.js";
import { hashPrompts } from "../src/shard/hash-prompts.js";
import { selectShard } from "../src/shard/select-shard.js";
import { type ShardSpec, formatShard } from "../src/shard/shard-spec.js";
import type { ActionContext } from "./action-context.js";
import type { ActionSettings, MergeSettings, RunSettings } from "./action-settings.js";
import { INPUTS } from "./input-helper.js";
import { readCardSource } from "./read-card-source.js";

/** What the pipeline needs from outside: the round runner, the card writer, GitHub, and a place to note the run id. */
export interface ActionDependencies {
  logger: Logger;
  signal: AbortSignal;
  runRound(options: {
    round: LoadedRound;
    logger: Logger;
    signal: AbortSignal;
    runId: string;
    shard: ShardSpec | null;
    source: CardSource | null;
    onProgress: (event: RoundProgressEvent) => void;
  }): Promise<Scorecard>;
  writeScorecard(outDir: string, card: Scorecard): Promise<{ jsonPath: string; markdownPath: string }>;
  createClient(token: string): GitHubClient;
  /** Called before any engine starts, so the post step can sweep what this run leaves behind. */
  onRunStarted(run: { runId: string; runtime: string }): void;
}

export interface ActionResult {
  card: Scorecard;
  jsonPath: string;
  markdownPath: string;
  markdown: string;
}

/** Unique per step: a re-run, another shard or another job of the same run must not sweep this one's engines. */
function createRunId(context: ActionContext): string {
  return `${context.runId ?? "local"}-${context.runAttempt ?? "1"}-${randomBytes(4).toString("hex")}`;
}

function requireToken(settings: ActionSettings, why: string): string {
  if (!settings.githubToken) throw new ConfigError(`input "${INPUTS.githubToken}": expected a token ${why}, got nothing`);
  return settings.githubToken;
}

async function resolvePatchPath(settings: RunSettings, source: CardSource, context: ActionContext, deps: ActionDependencies): Promise<string | undefined> {
  if (settings.patch.kind === "config") return undefined;
  if (settings.patch.kind === "file") return settings.patch.path;
  const label = `input "${INPUTS.patchFromPr}"`;
  if (!context.repository || source.pullRequest === null || source.headSha === null) {
    throw new ConfigError(
      `${label}: expected a pull_request event or workflow_dispatch inputs pr and sha, got a ${context.eventName || "unknown"} event without them`,
    );
  }
  const patch = await fetchPullRequestPatch(deps.createClient(requireToken(settings, "that may read the pull request")), {
    ...context.repository,
    pullNumber: source.pullRequest,
    headSha: source.headSha,
    paths: settings.patch.paths,
    label,
    logger: deps.logger,
  });
  const path = join(settings.outDir, `pull-request-${source.pullRequest}-${source.headSha.slice(0, 12)}.patch`);
  await writeFile(path, patch.bytes);
  deps.logger.info(`Fetched the diff of #${source.pullRequest} at ${source.headSha} (${patch.files.length} files, ${patch.bytes.length} bytes) to ${path}`);
  return path;
}

/** A missing file named by an input is that input's error, said before the config's own checks. */
async function requireReadableFile(path: string, input: string, what: string): Promise<void> {
  try {
    await access(path, constants.R_OK);
  } catch (error) {
    throw new ConfigError(`input "${input}": expected ${what}, could not read ${resolve(path)} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}

async function runMode(settings: RunSettings, context: ActionContext, deps: ActionDependencies): Promise<Scorecard> {
  await requireReadableFile(settings.config, INPUTS.config, "a readable round config file");
  if (settings.patch.kind === "file") await requireReadableFile(settings.patch.path, INPUTS.patch, "a readable patch file");
  const source = readCardSource(context);
  const patchPath = await resolvePatchPath(settings, source, context, deps);
  const loaded = await loadRound(settings.config, patchPath ? { patchPath } : {});
  let round = loaded;
  if (settings.shard) {
    const prompts = selectShard(loaded.prompts, settings.shard);
    if (prompts.length === 0) {
      throw new ConfigError(
        `input "${INPUTS.shard}": ${formatShard(settings.shard)} has no prompts, the round has only ${loaded.prompts.length}; expected at most that many shards`,
      );
    }
    deps.logger.info(`${formatShard(settings.shard)}: ${prompts.length} of ${loaded.prompts.length} prompts`);
    round = { ...loaded, prompts };
  }
  const runId = createRunId(context);
  deps.onRunStarted({ runId, runtime: round.config.runtime });
  const card = await deps.runRound({
    round,
    logger: deps.logger,
    signal: deps.signal,
    runId,
    shard: settings.shard,
    source,
    // Plain lines (no TTY): the job log shows each stage and the benchmark at every tenth.
    onProgress: createProgressRenderer({ write: (text) => deps.logger.info(text.replace(/\n$/, "")) }).onProgress,
  });
  // A shard's card names the whole prompt set, as the unsharded round's does, so that the merge can
  // tell shards of one round from shards of different prompt files.
  return settings.shard ? { ...card, provenance: { ...card.provenance, promptsHash: hashPrompts(loaded.prompts) } } : card;
}

async function mergeMode(settings: MergeSettings, context: ActionContext, deps: ActionDependencies): Promise<Scorecard> {
  const files = await findCardFiles(settings.cards, `input "${INPUTS.cards}"`);
  deps.logger.info(`Merging ${files.length} shard cards: ${files.join(", ")}`);
  const cards: Scorecard[] = [];
  for (const file of files) cards.push(await readScorecard(file));
  const merged = mergeScorecards(cards, { labels: files, source: `input "${INPUTS.cards}": cannot merge these shard cards` });
  return merged.source ? merged : { ...merged, source: readCardSource(context) };
}

async function commentCard(settings: ActionSettings, card: Scorecard, markdown: string, context: ActionContext, deps: ActionDependencies): Promise<void> {
  const number = card.source?.pullRequest ?? null;
  if (!context.repository || number === null) {
    deps.logger.warn(`comment: true, but this run is not about a pull request (${context.eventName || "unknown"} event); not commenting`);
    return;
  }
  try {
    const client = deps.createClient(requireToken(settings, "that may comment on the pull request"));
    const result = await upsertCardComment(client, { ...context.repository, issueNumber: number, body: markdown });
    deps.logger.info(`Card comment ${result.action} on #${number}`);
  } catch (error) {
    // A fork's pull request gets a read-only token; the card is still in the summary and the artifact.
    deps.logger.warn(`Could not comment the card on #${number} (${(error as Error).message}); a fork's pull request gets a read-only token, the app can comment instead`);
  }
}

/** The action as a pipeline: settings and context in, a written card out. Touches no @actions/core. */
export async function runAction(settings: ActionSettings, context: ActionContext, deps: ActionDependencies): Promise<ActionResult> {
  await mkdir(settings.outDir, { recursive: true });
  const card = settings.mode === "merge" ? await mergeMode(settings, context, deps) : await runMode(settings, context, deps);
  const { jsonPath, markdownPath } = await deps.writeScorecard(settings.outDir, card);
  const markdown = renderMarkdown(card);
  if (settings.comment) await commentCard(settings, card, markdown, context, deps);
  return { card, jsonPath, markdownPath, markdown };
}
