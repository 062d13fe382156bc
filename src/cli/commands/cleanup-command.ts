import Dockerode from "dockerode";
import { DEFAULT_BASELINE_MAX_AGE_MS, sweepBaselineImages } from "../../docker/sweep-baseline-images.js";
import { DEFAULT_STALE_AFTER_MS, sweepResources } from "../../docker/sweep-resources.js";
import { type Command, UsageError } from "../command.js";
import { parseCommandArgs } from "../parse-command-args.js";

const USAGE = "speedgate cleanup (--run-id ID | --stale | --baselines) [--older-than-hours H] [--keep-images]";
const DETAILS = `Options:
  --run-id ID   remove the containers, networks and candidate images of one run
  --stale       remove those of every run whose speedgate process is gone: on this host, its pid
                (with the process's start time, so a reused pid does not count) no longer runs;
                made on another host or without a pid, older than --older-than-hours (default ${DEFAULT_STALE_AFTER_MS / 3_600_000})
  --baselines   remove the baseline images cached per base commit (base/head mode) built more than
                --older-than-hours ago (default ${DEFAULT_BASELINE_MAX_AGE_MS / 3_600_000}, a week); one still in use is kept
  --keep-images keep the candidate images too
Otherwise baseline images are kept: runs share them and they are slow to rebuild. The build cache
volumes (speedgate-build-cache-<engine>) are never removed: docker volume rm clears one.

Exit codes: 0 removed (or nothing to remove); 1 no Docker daemon answers; 2 bad usage`;

export const cleanupCommand: Command = {
  name: "cleanup",
  summary: "remove the Docker containers, networks and images a run left behind",
  usage: USAGE,
  details: DETAILS,
  async run(args, context) {
    const { values } = parseCommandArgs("cleanup", args, {
      "run-id": { type: "string" },
      stale: { type: "boolean", default: false },
      baselines: { type: "boolean", default: false },
      "older-than-hours": { type: "string" },
      "keep-images": { type: "boolean", default: false },
    });
    const runId = values["run-id"];
    if ([runId !== undefined, values.stale, values.baselines].filter(Boolean).length !== 1) {
      throw new UsageError(`speedgate cleanup: expected exactly one of --run-id, --stale or --baselines\nusage: ${USAGE}`);
    }
    let staleAfterMs = values.baselines ? DEFAULT_BASELINE_MAX_AGE_MS : DEFAULT_STALE_AFTER_MS;
    if (values["older-than-hours"] !== undefined) {
      const hours = Number(values["older-than-hours"]);
      if (!Number.isFinite(hours) || hours < 0) {
        throw new UsageError(`speedgate cleanup: --older-than-hours: expected a number of hours, 0 or more, got ${JSON.stringify(values["older-than-hours"])}`);
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
      context.stdout.write(`removed ${sweep.removed.length} cached baseline image(s) older than ${staleAfterMs / 3_600_000} hours; kept ${sweep.kept + sweep.inUse.length}\n`);
      return 0;
    }
    const counts = await sweepResources(docker, runId !== undefined ? { runId } : { stale: true }, context.logger, {
      keepCandidateImages: values["keep-images"],
      staleAfterMs,
    });
    const what = runId !== undefined ? `run ${runId}` : "stale runs";
    context.stdout.write(`removed ${counts.containers} container(s), ${counts.networks} network(s), ${counts.images} image(s) of ${what}\n`);
    return 0;
  },
};
