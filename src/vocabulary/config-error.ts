/**
 * A problem with what the user gave us (config, prompts, patch, CLI usage). Commands exit 2 on it
 * and nothing has been started yet, so the message is all the user needs to fix it.
 */
export class ConfigError extends Error {
  readonly exitCode = 2;

  constructor(
    message: string,
    readonly problems: readonly string[] = [message],
  ) {
    super(message);
    this.name = "ConfigError";
  }

  static fromProblems(problems: readonly string[], source: string): ConfigError {
    const first = problems[0] ?? "invalid input";
    if (problems.length === 1) return new ConfigError(`${source}: ${first}`, problems);
    const listed = problems.map((problem) => `  - ${problem}`).join("\n");
    return new ConfigError(`${source}: ${problems.length} problems\n${listed}`, problems);
  }
}
