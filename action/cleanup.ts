import * as core from "@actions/core";
import { createActionsLogger } from "./create-actions-logger.js";
import { STATE } from "./state-keys.js";

async function sweepDocker(runId: string): Promise<void> {
  // Loaded only here: a process-runtime run never needs Docker on the machine.
  const { default: Dockerode } = await import("dockerode");
  const { sweepResources } = await import("../src/docker/sweep-resources.js");
  const counts = await sweepResources(new Dockerode(), { runId }, createActionsLogger());
  core.info(`Swept run ${runId}: ${counts.containers} containers, ${counts.networks} networks, ${counts.images} images`);
}

/**
 * The post step: runs even when main failed or was cancelled, and removes whatever still carries
 * this run's id. It only warns: a cleanup problem must not turn a scored round into a failed job.
 */
export async function cleanUp(): Promise<void> {
  try {
    const runId = core.getState(STATE.runId);
    const runtime = core.getState(STATE.runtime);
    if (!runId) {
      core.info("No round was started; nothing to clean up");
      return;
    }
    if (runtime !== "docker") {
      // The process runtime stops its engines' process groups itself, even on cancellation.
      core.info(`Run ${runId} used the ${runtime || "unknown"} runtime; nothing to sweep`);
      return;
    }
    await sweepDocker(runId);
  } catch (error) {
    core.warning(`Cleanup after speedgate could not finish: ${(error as Error).message}`);
  }
}
