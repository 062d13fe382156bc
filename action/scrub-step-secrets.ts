import { isSecretVariable } from "../src/engine/without-secret-variables.js";

/**
 * Removes the step's secrets from this process's environment once the inputs are parsed, so that no
 * child of the step (engines included) can find them. RUNNER_TRACKING_ID stays: the runner finds the
 * processes a job left behind by it, and ends them when the job is over. Returns the names removed.
 */
export function scrubStepSecrets(env: NodeJS.ProcessEnv): string[] {
  const removed = Object.keys(env).filter(isSecretVariable);
  for (const name of removed) delete env[name];
  return removed.sort();
}
