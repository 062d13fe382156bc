import { resolve } from "node:path";
import Dockerode from "dockerode";
import { sweepLeftRounds } from "../../engine/sweep-left-rounds.js";
import { GitError, gitText } from "../../git/run-git.js";
import { DEFAULT_BASELINE_MAX_AGE_MS, sweepBaselineImages } from "../../docker/sweep-baseline-images.js";
import { DEFAULT_STALE_AFTER_MS, sweepResources } from "../../docker/sweep-resources.js";
import { type Command, UsageError } from "../command.js";
import { parseCommandArgs } from "../parse-command-args.js";

const USAGE = "speedgate cleanup [--repo DIR] | (--run-id ID | --stale | --baselines) [--older-than-hours H] [--keep-images]";
const DETAILS = `Without a mode: in the git repository around DIR (--repo, default the current folder), remove what
base/head rounds with runtime: process left there when their process was killed (a cancelled or
timed-out job): their worktrees, temporary folders and engine processes. A round still running is
left alone, and every new round in the repository does the same first. Needs no Docker.

Options:
  --repo DIR    the repository whose killed rounds to clean up (default: the current folder)
  --run-id ID   remove the containers, networks and candidate images of one run
  --stale       remove those of every run whose speedgate process is gone: on this host, its pid
                (with the process's start time, so a reused pid does not count) no longer runs;
                made on another host or without a pid, older than --older-than-hours (default ${DEFAULT_STALE_AFTER_MS / 3_600_000})
  --baselines   remove the baseline images cached per base commit (base/head mode) built more than
                --older-than-hours ago (default ${DEFAULT_BASELINE_MAX_AGE_MS / 3_600_000}, a week); one still in use is kept
  --keep-images keep the candidate images too
Otherwise baseline images are kept: runs share them and they are slow to rebuild. The build cache
volumes (speedgate-build-cache-<engine>) are never removed: docker volume rm clears one.

Exit codes: 0 removed (or nothing to remove); 1 no Docker daemon answers; 2 bad usage, or DIR is not
in a git repository`;

export const cleanupCommand: Command = {
  name: "cleanup",
  summary: "remove the worktrees, engine processes, Docker containers, networks and images a run left behind",
  usage: USAGE,
  details: DETAILS,
  async run(args, context) {
    const { values } = parseCommandArgs("cleanup", args, {
      "run-id": { type: "string" },
      stale: { type: "boolean", default: false },
      baselines: { type: "boolean", default: false },
      "older-than-hours": { type: "string" },
      "keep-images": { type: "boolean", default: false },
      repo: { type: "string" },
    });
    const runId = values["run-id"];
    const modes = [runId !== undefined, values.stale, values.baselines].filter(Boolean).length;
    if (modes === 0) {
      const from = resolve(values.repo ?? process.cwd());
      let repoDir: string;
      try {
        repoDir = await gitText(from, ["rev-parse", "--show-toplevel"]);
      } catch (error) {
        if (!(error instanceof GitError)) throw error;
        throw new UsageError(
          `speedgate cleanup: ${from} is not in a git repository; run it in the engine's repository or name it with --repo\nusage: ` +
            `${USAGE}`,
        );
      }
      const sweep = await sweepLeftRounds(repoDir, context.logger);
      context.stdout.write(
        `removed what ${sweep.rounds} killed round(s) left in ${repoDir}: ${sweep.worktrees} worktree(s), ${sweep.processGroups} ` +
          `process group(s) still running` +
          (sweep.live > 0 ? `; ${sweep.live} round(s) still running left alone` : "") +
          "\n",
      );
      return 0;
    }
    if (modes !== 1 || values.repo !== undefined) {
      throw new UsageError(
        `speedgate cleanup: expected at most one of --run-id, --stale or --baselines, and --repo only without them\nusage: ${USAGE}`,
      );
    }
    let staleAfterMs = values.baselines ? DEFAULT_BASELINE_MAX_AGE_MS : DEFAULT_STALE_AFTER_MS;
    if (values["older-than-hours"] !== undefined) {
      const hours = Number(values["older-than-hours"]);
      if (!Number.isFinite(hours) || hours < 0) {
        throw new UsageError(
          `speedgate cleanup: --older-than-hours: expected a number of hours, 0 or more, got ${JSON.stringify(values["older-than-hours"])}`,
        );
      }
      staleAfterMs = hours * 3_600_000;
    }
    const docker = new Dockerode();
    try {
      await docker.ping();
    } catch (error) {
      context.logger.error(`speedgate cleanup: no Docker daemon answers (${(error as Error).message}); nothing was removed`);
      return 1;
    }
    if (values.baselines) {
      const sweep = await sweepBaselineImages(docker, { maxAgeMs: staleAfterMs }, context.logger);
      for (const name of sweep.removed) context.stdout.write(`removed ${name}\n`);
      for (const name of sweep.inUse) context.stdout.write(`kept ${name}: still in use\n`);
      context.stdout.write(
        `removed ${sweep.removed.length} cached baseline image(s) older than ${staleAfterMs / 3_600_000} hours; kept ` +
          `${sweep.kept + sweep.inUse.length}\n`,
      );
      return 0;
    }
    const counts = await sweepResources(docker, runId !== undefined ? { runId } : { stale: true }, context.logger, {
      keepCandidateImages: values["keep-images"],
      staleAfterMs,
    });
    const what = runId !== undefined ? `run ${runId}` : "stale runs";
    context.stdout.write(
      `removed ${counts.containers} container(s), ${counts.networks} network(s), ${counts.images} image(s) of ${what}\n`,
    );
    return 0;
  },
};
