import { access, mkdir, readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { findRepositoryRoot, resolveCommit } from "../../git/resolve-commit.js";
import { localCommitRounds } from "../../round/run-commit-round.js";
import { RoundCancelledError } from "../../round/round-cancelled-error.js";
import { readWatchSettings, resolveWatchBase, runWatch } from "../../round/run-watch.js";
import { writeWatchReport } from "../../round/write-watch-report.js";
import { writeAtomically } from "../../round/write-scorecard.js";
import { ConfigError } from "../../vocabulary/config-error.js";
import { type WatchState, parseWatchState } from "../../watch/watch-state.js";
import { type Command, UsageError } from "../command.js";
import { describeWatchRun } from "../describe-watch-run.js";
import { parseCommandArgs } from "../parse-command-args.js";
import { createProgressRenderer } from "../render-round-progress.js";
import { EXIT_IMAGE_BASE_MISMATCH } from "./run-command.js";

/** Where the watch keeps its good commit without the app, unless --state says otherwise: beside the app's own default data folder. */
export const DEFAULT_STATE_PATH = join(".speedgate", "watch-state.json");

export async function readStateFile(path: string): Promise<WatchState | null> {
  try {
    await access(path);
  } catch {
    return null;
  }
  try {
    return parseWatchState(await readFile(path, "utf8"), path);
  } catch (error) {
    throw new ConfigError(`--state: ${(error as Error).message}`);
  }
}

export async function repositoryRoot(repo: string | undefined): Promise<string> {
  const from = resolve(repo ?? process.cwd());
  const root = await findRepositoryRoot(from);
  if (!root) throw new ConfigError(`--repo: expected a clone of the engine's repository, but ${from} is not in a git repository`);
  return root;
}

export const watchCommand: Command = {
  name: "watch",
  summary: "score main's head against the last commit the watch found good, and bisect a drift beyond watch.maxDrift",
  usage:
    "speedgate watch --config <round.yml> --out <dir> [--repo <dir>] [--head <rev>] [--good <rev>] [--state <file>] [--bisect] " +
    "[--fail-on-drift]",
  details: `Options:
  --config <file>    the round config; its watch: section sets the bar, where the watch starts and the repeats
  --out <dir>        where the drift round's card, watch.json and (with --bisect) bisection/ are written
  --repo <dir>       the engine's clone (default: the one around the current folder)
  --head <rev>       main's head (default HEAD)
  --good <rev>       the commit to measure against this once (default: the state file's, else watch.since)
  --state <file>     the watch's state: its good commit, kept between runs (default: .speedgate/watch-state.json
                     in the repository); written after each run
  --bisect           when the drift round raises an alarm, bisect main's first-parent range here, one round
                     after another (docs/watching-main.md)
  --fail-on-drift    exit 1 when a scenario drifted beyond the bar

Exit codes:
  0    the watch ran (an alarm too, without --fail-on-drift), or main has not moved
  1    --fail-on-drift and main drifted, or speedgate itself failed
  2    a bad config, state file, commit or usage: nothing was run
  3    the engine image cannot be brought to the good commit (image_base_mismatch)
  130  cancelled by SIGINT or SIGTERM`,
  async run(args, context) {
    const { values } = parseCommandArgs("watch", args, {
      config: { type: "string" },
      out: { type: "string" },
      repo: { type: "string" },
      head: { type: "string" },
      good: { type: "string" },
      state: { type: "string" },
      bisect: { type: "boolean", default: false },
      "fail-on-drift": { type: "boolean", default: false },
    });
    if (!values.config) throw new UsageError(`speedgate watch: --config is required\nusage: ${this.usage}`);
    if (!values.out) throw new UsageError(`speedgate watch: --out is required\nusage: ${this.usage}`);
    const watch = await readWatchSettings(values.config);
    const repoDir = await repositoryRoot(values.repo);
    const head = await resolveCommit(repoDir, values.head ?? "HEAD");
    if (!head)
      throw new ConfigError(`--head: expected a commit of the repository at ${repoDir}, got ${JSON.stringify(values.head ?? "HEAD")}`);
    const statePath = resolve(repoDir, values.state ?? DEFAULT_STATE_PATH);
    const state = await readStateFile(statePath);
    const base = await resolveWatchBase({
      repoDir,
      head,
      given: values.good ?? null,
      state,
      since: watch.since,
      labels: { given: "--good", since: "watch.since" },
    });
    context.logger.info(`watch: main's head ${head.slice(0, 12)} against ${base.good.slice(0, 12)}, ${base.because}`);
    const progress = createProgressRenderer(process.stderr);
    let run;
    try {
      run = await runWatch({
        repoDir,
        head,
        base,
        state,
        watch,
        bisect: values.bisect,
        runRound: localCommitRounds({
          configPath: values.config,
          repoDir,
          logger: context.logger,
          signal: context.signal,
          onProgress: (_label, event) => progress.onProgress(event),
        }),
        logger: context.logger,
        signal: context.signal,
        now: () => new Date(),
      });
    } catch (error) {
      progress.finish();
      if (error instanceof RoundCancelledError) {
        context.logger.error(error.message);
        return 130;
      }
      throw error;
    }
    progress.finish();
    const written = await writeWatchReport(values.out, run, watch.maxDrift);
    await mkdir(dirname(statePath), { recursive: true });
    await writeAtomically(statePath, `${JSON.stringify(run.state, null, 2)}\n`);
    context.stdout.write(describeWatchRun(run, watch.maxDrift));
    if (written.bisection) context.stdout.write(`\n${written.bisection.markdown}`);
    context.logger.info(
      `wrote ${written.watchPath}${written.cardPaths ? ` and ${written.cardPaths.jsonPath}` : ""}; state in ${statePath}`,
    );
    if (run.card?.failure?.kind === "image_base_mismatch") return EXIT_IMAGE_BASE_MISMATCH;
    return values["fail-on-drift"] && run.judgement?.alarm ? 1 : 0;
  },
};
