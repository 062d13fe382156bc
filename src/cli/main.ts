import { ConfigError } from "../vocabulary/config-error.js";
import { type Logger, createStderrLogger } from "../logger.js";
import { SPEEDGATE_VERSION } from "../version.js";
import { type Command, type CommandContext, UsageError } from "./command.js";
import { commands } from "./commands/index.js";

/** Options every command takes; main() reads them before the command's own. */
const GLOBAL_OPTIONS = `Options for every command:
  --verbose   also print debug messages and every engine log line on stderr
  --help, -h  print the command's options and exit codes
  --version   print speedgate's version`;

function helpText(all: readonly Command[]): string {
  const width = Math.max(...all.map((command) => command.name.length));
  const lines = all.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`);
  return (
    `speedgate ${SPEEDGATE_VERSION}: does this patch really make the engine faster?\n\nUsage: speedgate <command> ` +
    `[options]\n\n${lines.join("\n")}\n\n${GLOBAL_OPTIONS}\n\nRun "speedgate <command> --help" or "speedgate help <command>" for a ` +
    `command's options and exit codes.\n`
  );
}

export function commandHelpText(command: Command): string {
  const details = command.details ? `\n${command.details}\n` : "";
  return `${command.summary}\n\nUsage: ${command.usage}\n${details}\n${GLOBAL_OPTIONS}\n`;
}

export interface MainOptions {
  stdout?: CommandContext["stdout"];
  logger?: Logger;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
}

/** Runs one CLI invocation and resolves to its exit code; never calls process.exit itself. */
export async function main(argv: string[], options: MainOptions = {}): Promise<number> {
  const stdout = options.stdout ?? process.stdout;
  const logger = options.logger ?? createStderrLogger({ verbose: argv.includes("--verbose") });
  const [name, ...rest] = argv.filter((arg) => arg !== "--verbose");
  if (name === "help" && rest[0] !== undefined) {
    const command = commands.find((candidate) => candidate.name === rest[0]);
    if (!command) {
      logger.error(`speedgate help: unknown command ${JSON.stringify(rest[0])}; expected one of ${commands.map((c) => c.name).join(", ")}`);
      return 2;
    }
    stdout.write(commandHelpText(command));
    return 0;
  }
  if (!name || name === "--help" || name === "-h" || name === "help") {
    stdout.write(helpText(commands));
    return name ? 0 : 2;
  }
  if (name === "--version") {
    stdout.write(`${SPEEDGATE_VERSION}\n`);
    return 0;
  }
  const command = commands.find((candidate) => candidate.name === name);
  if (!command) {
    logger.error(`unknown command ${JSON.stringify(name)}; expected one of ${commands.map((c) => c.name).join(", ")}`);
    return 2;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    stdout.write(commandHelpText(command));
    return 0;
  }
  const context: CommandContext = {
    stdout,
    logger,
    signal: options.signal ?? new AbortController().signal,
    env: options.env ?? process.env,
  };
  try {
    return await command.run(rest, context);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof UsageError) {
      logger.error(error.message);
      return 2;
    }
    logger.error(`speedgate ${name} failed: ${(error as Error).stack ?? String(error)}`);
    return 1;
  }
}
