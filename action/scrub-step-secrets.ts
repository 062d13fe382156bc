/**
 * Variables through which a step can reach GitHub with the job's rights: the inputs (github-token
 * among them), the runner's artifact, cache and OIDC tokens, and tokens a workflow put in `env:`.
 */
const SECRET_VARIABLES = [/^INPUT_/i, /^ACTIONS_RUNTIME_TOKEN$/, /^ACTIONS_ID_TOKEN_REQUEST_(TOKEN|URL)$/, /^(GITHUB|GH)_TOKEN$/];

/**
 * Removes them from this process's environment once the inputs are parsed. The process runtime
 * starts engines with this environment, and an engine runs the pull request's code: it must not
 * find the token there. RUNNER_TRACKING_ID stays: the runner finds the processes a job left behind
 * by it, and ends them when the job is over. Returns the names removed, for the log.
 */
export function scrubStepSecrets(env: NodeJS.ProcessEnv): string[] {
  const removed = Object.keys(env).filter((name) => SECRET_VARIABLES.some((pattern) => pattern.test(name)));
  for (const name of removed) delete env[name];
  return removed.sort();
}
