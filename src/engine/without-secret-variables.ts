/**
 * Variables through which a process can reach GitHub or the runner with the job's rights: the action's
 * inputs (github-token among them), the runner's artifact, cache and OIDC tokens, and tokens a workflow
 * or a shell put in the environment. An engine runs the pull request's code: it must not find them.
 */
const SECRET_VARIABLES = [/^INPUT_/i, /^ACTIONS_RUNTIME_TOKEN$/, /^ACTIONS_ID_TOKEN_REQUEST_(TOKEN|URL)$/, /^(GITHUB|GH)_TOKEN$/, /^GH_ENTERPRISE_TOKEN$/];

export function isSecretVariable(name: string): boolean {
  return SECRET_VARIABLES.some((pattern) => pattern.test(name));
}

/** A copy of the environment without those variables, for engines started on the host. */
export function withoutSecretVariables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !isSecretVariable(name)));
}
