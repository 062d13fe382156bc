/**
 * Variables through which a process can reach GitHub or the runner with the job's rights: the action's
 * inputs (github-token among them), the runner's artifact, cache and OIDC tokens, and tokens a workflow
 * or a shell put in the environment. Engines never see them (their environment is an allow-list); this
 * keeps them from the step's other children too (git, patch).
 */
const SECRET_VARIABLES = [
  /^INPUT_/i,
  /^ACTIONS_RUNTIME_TOKEN$/,
  /^ACTIONS_ID_TOKEN_REQUEST_(TOKEN|URL)$/,
  /^(GITHUB|GH)_TOKEN$/,
  /^GH_ENTERPRISE_TOKEN$/,
];

export function isSecretVariable(name: string): boolean {
  return SECRET_VARIABLES.some((pattern) => pattern.test(name));
}

/**
 * Removes the step's secrets from this process's environment once the inputs are parsed, so that no
 * child of the step can find them in its environment. RUNNER_TRACKING_ID stays: the runner finds the
 * processes a job left behind by it, and ends them when the job is over. Returns the names removed.
 */
export function scrubStepSecrets(env: NodeJS.ProcessEnv): string[] {
  const removed = Object.keys(env).filter(isSecretVariable);
  for (const name of removed) delete env[name];
  return removed.sort();
}
