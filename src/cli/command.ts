import type { Logger } from "../logger.js";

/** What a command may touch: its output stream for results, a logger for progress, and a signal for cancellation. */
export interface CommandContext {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  logger: Logger;
  signal: AbortSignal;
  env: NodeJS.ProcessEnv;
}

export interface Command {
  name: string;
  summary: string;
  usage: string;
  /** Options and exit codes, printed by `speedgate <command> --help` and `speedgate help <command>` under the usage. */
  details?: string;
  /** Resolves to the process exit code: 0 done, 1 gate not passed (when asked), 2 bad input. */
  run(args: string[], context: CommandContext): Promise<number>;
}

export class UsageError extends Error {
  readonly exitCode = 2;
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}
