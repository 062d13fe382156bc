import { constants } from "node:fs";
import { access, mkdir, readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { ConfigError } from "../src/vocabulary/config-error.js";
import { type LoadedRound, loadRound, parseRoundConfigYaml } from "../src/config/load-round-config.js";
import type { GitHubClient } from "../src/github/github-client.js";
import { createProgressRenderer } from "../src/cli/render-round-progress.js";
import type { Logger } from "../src/logger.js";
import { listRoundWorkloads } from "../src/round/list-round-workloads.js";
import type { RoundProgressEvent } from "../src/round/round-progress.js";
import type { CardSource } from "../src/scorecard/build-scorecard.js";
import { readScorecard } from "../src/scorecard/read-scorecard.js";
import { renderMarkdown } from "../src/scorecard/render/render-markdown.js";
import type { Scorecard } from "../src/scorecard/scorecard-schema.js";
import { findCardFiles } from "../src/shard/find-card-files.js";
import { mergeScorecards } from "../src/shard/merge-scorecards.js";
import { selectRoundShard } from "../src/shard/select-round-shard.js";
import { type ShardSpec, formatShard } from "../src/shard/shard-spec.js";
import type { ActionContext } from "./action-context.js";
import type { MergeSettings, RunSettings } from "./action-settings.js";
import { commentCard } from "./comment-card.js";
import { createRunId } from "./create-run-id.js";
import { INPUTS } from "./input-helper.js";
import { readCardSource } from "./read-card-source.js";
import { refuseUntrustedProcessRound } from "./refuse-untrusted-process-round.js";
import { refuseUnreachableHead } from "./refuse-unreachable-head.js";
import { refuseUnreachablePatch } from "./refuse-unreachable-patch.js";
import { resolveRunCommits, scoresCommits } from "./resolve-run-commits.js";
import { writePullRequestPatch } from "./write-pull-request-patch.js";

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
  createClient: (token: string) => GitHubClient;
  /** Called before any engine starts, so the post step can sweep what this run leaves behind. */
  onRunStarted(run: { runId: string; runtime: string }): void;
}

export interface ActionResult {
  card: Scorecard;
  jsonPath: string;
  markdownPath: string;
  markdown: string;
}

/** A missing file named by an input is that input's error, said before the config's own checks. */
async function requireReadableFile(path: string, input: string, what: string): Promise<void> {
  try {
    await access(path, constants.R_OK);
  } catch (error) {
    throw new ConfigError(
      `input "${input}": expected ${what}, could not read ${resolve(path)} ` +
        `(${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
}

/** Whether the round config names its own patch (candidate.patch): the fixed-baseline mode, whatever the event. */
async function configNamesPatch(configPath: string): Promise<boolean> {
  const path = resolve(configPath);
  return parseRoundConfigYaml(await readFile(path, "utf8"), path).candidate.patch !== undefined;
}

async function runMode(settings: RunSettings, context: ActionContext, deps: ActionDependencies): Promise<Scorecard> {
  await requireReadableFile(settings.config, INPUTS.config, "a readable round config file");
  if (settings.patch.kind === "file") await requireReadableFile(settings.patch.path, INPUTS.patch, "a readable patch file");
  // Decided before anything is fetched: which mode the round is in, and whether its candidate is a pull request's code.
  const scoringCommits = settings.patch.kind === "config" && scoresCommits(settings, context, await configNamesPatch(settings.config));
  await refuseUntrustedProcessRound(settings, context, { commits: scoringCommits });
  // A dispatch naming no pull request by name may still name a fork's commit: in patch mode each one it names is checked here.
  if (!scoringCommits) await refuseUnreachablePatch(settings, context, deps.logger);
  const commits = scoringCommits
    ? await resolveRunCommits(settings, context, { createClient: deps.createClient, logger: deps.logger })
    : null;
  // Once fetched, the head itself says whether it is the repository's own, whatever the event said.
  if (commits) await refuseUnreachableHead(settings, context, commits, deps.logger);
  let source = readCardSource(context);
  if (commits && source.headSha === null) source = { ...source, headSha: commits.head };
  let patchPath: string | undefined = settings.patch.kind === "file" ? settings.patch.path : undefined;
  if (settings.patch.kind === "pull-request") {
    const written = await writePullRequestPatch({
      settings,
      paths: settings.patch.paths,
      source,
      context,
      createClient: deps.createClient,
      logger: deps.logger,
    });
    patchPath = written.path;
    // The card says what patch-paths left out, so a check passing for the commit never hides it.
    if (written.patchFilter) source = { ...source, patchFilter: written.patchFilter };
  }
  const loaded = await loadRound(settings.config, patchPath ? { patchPath } : commits ? { commits } : {});
  let round = loaded;
  if (settings.shard) {
    const sharded = selectRoundShard(loaded, settings.shard);
    const shard = settings.shard;
    if (sharded.empty.length > 0) {
      const problems = sharded.empty.map(({ scenario, total }) =>
        scenario === null
          ? `input "${INPUTS.shard}": ${formatShard(shard)} has no prompts, the round has only ${total}; expected at most that many shards`
          : `input "${INPUTS.shard}": ${formatShard(shard)} has no prompts of scenario ${scenario}, which has only ${total}; expected ` +
            `at most that many shards`,
      );
      throw new ConfigError(problems.join("; "));
    }
    // Counted over what is sent: a round with scenarios may have no bench.prompts of its own.
    const sent = (part: LoadedRound): number => listRoundWorkloads(part).reduce((sum, workload) => sum + workload.prompts.length, 0);
    deps.logger.info(`${formatShard(shard)}: ${sent(sharded.round)} of ${sent(loaded)} prompts`);
    round = sharded.round;
  }
  const runId = createRunId(context);
  deps.onRunStarted({ runId, runtime: round.config.runtime });
  return await deps.runRound({
    round,
    logger: deps.logger,
    signal: deps.signal,
    runId,
    shard: settings.shard,
    source,
    // Plain lines (no TTY): the job log shows each stage and the benchmark at every tenth.
    onProgress: createProgressRenderer({ write: (text) => deps.logger.info(text.replace(/\n$/, "")) }).onProgress,
  });
}

async function mergeMode(settings: MergeSettings, context: ActionContext, deps: ActionDependencies): Promise<Scorecard> {
  const files = await findCardFiles(settings.cards, `input "${INPUTS.cards}"`);
  deps.logger.info(`Merging ${files.length} shard cards: ${files.join(", ")}`);
  const cards: Scorecard[] = [];
  for (const file of files) cards.push(await readScorecard(file));
  const merged = mergeScorecards(cards, { labels: files, source: `input "${INPUTS.cards}": cannot merge these shard cards` });
  return merged.source ? merged : { ...merged, source: readCardSource(context) };
}

/** The action as a pipeline: settings and context in, a written card out. Touches no @actions/core. mode: watch is run-watch-mode.ts. */
export async function runAction(
  settings: RunSettings | MergeSettings,
  context: ActionContext,
  deps: ActionDependencies,
): Promise<ActionResult> {
  await mkdir(settings.outDir, { recursive: true });
  const card = settings.mode === "merge" ? await mergeMode(settings, context, deps) : await runMode(settings, context, deps);
  const { jsonPath, markdownPath } = await deps.writeScorecard(settings.outDir, card);
  const markdown = renderMarkdown(card);
  if (settings.comment) await commentCard({ settings, card, markdown, context, createClient: deps.createClient, logger: deps.logger });
  return { card, jsonPath, markdownPath, markdown };
}
