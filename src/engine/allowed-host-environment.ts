/**
 * What an engine started on the host may see of the host's environment: where programs and
 * libraries are (PATH, LD_LIBRARY_PATH), whose home and temp folder it uses, the locale and time
 * zone, the GPU's settings (CUDA_*, NVIDIA_*, NCCL_*), and RUNNER_TRACKING_ID, by which the Actions
 * runner finds and ends what a job left running. Everything else (the step's inputs, the runner's
 * tokens, GITHUB_ENV and GITHUB_OUTPUT, a cloud credential someone exported) stays out; an engine
 * that needs more gets it from the round config's `env`.
 */
const ALLOWED_NAMES = new Set([
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "TMPDIR",
  "TZ",
  "LANG",
  "LANGUAGE",
  "LD_LIBRARY_PATH",
  "RUNNER_TRACKING_ID",
]);
const ALLOWED_PREFIXES = ["LC_", "CUDA_", "NVIDIA_", "NCCL_"];

export function isAllowedHostVariable(name: string): boolean {
  return ALLOWED_NAMES.has(name) || ALLOWED_PREFIXES.some((prefix) => name.startsWith(prefix));
}

/** The allowed part of `env`, the base of a host engine's environment (the config's `env` goes on top). */
export function allowedHostEnvironment(env: NodeJS.ProcessEnv): Record<string, string> {
  const allowed: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && isAllowedHostVariable(name)) allowed[name] = value;
  }
  return allowed;
}
