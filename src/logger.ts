/**
 * The one logging seam of the core. The action adapts it to `@actions/core`, the app to Probot's
 * pino logger and the CLI to stderr, so nothing in `src/` depends on where it runs.
 */
export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/** Writes to stderr so that stdout stays free for the card a command prints. */
export function createStderrLogger(options: { verbose?: boolean } = {}): Logger {
  const write = (prefix: string, message: string): void => {
    process.stderr.write(`${prefix}${message}\n`);
  };
  return {
    debug: (message) => {
      if (options.verbose) write("debug: ", message);
    },
    info: (message) => write("", message),
    warn: (message) => write("warning: ", message),
    error: (message) => write("error: ", message),
  };
}

/** Collects messages in memory; tests read them back to check what a user would be told. */
export interface RecordingLogger extends Logger {
  readonly lines: Array<{ level: "debug" | "info" | "warn" | "error"; message: string }>;
}

export function createRecordingLogger(): RecordingLogger {
  const lines: RecordingLogger["lines"] = [];
  return {
    lines,
    debug: (message) => lines.push({ level: "debug", message }),
    info: (message) => lines.push({ level: "info", message }),
    warn: (message) => lines.push({ level: "warn", message }),
    error: (message) => lines.push({ level: "error", message }),
  };
}
