import { speedgateEntryArgs } from "./locate-speedgate.js";

/** Where a process engine is reached, and so what {host} is: the loopback, never an address others can reach. */
export const PROCESS_ENGINE_HOST = "127.0.0.1";

export interface CommandValues {
  port: number;
  /** The loopback address the round reaches the engine on, which is where it must listen. */
  host: string;
  contextLimit: number;
  model: string;
}

/**
 * Fills {port}, {host}, {contextLimit}, {model} and {node} in each argument. An argument that is exactly
 * "{speedgate}" becomes the arguments that run this speedgate after {node} (one or several), so the
 * demo and the tests can start `speedgate sim-engine` from the sources or from the bundle.
 */
export function substituteCommand(command: readonly string[], values: CommandValues): string[] {
  return command.flatMap((argument) => {
    if (argument === "{speedgate}") return speedgateEntryArgs();
    return [
      argument
        .replaceAll("{port}", String(values.port))
        .replaceAll("{host}", values.host)
        .replaceAll("{contextLimit}", String(values.contextLimit))
        .replaceAll("{model}", values.model)
        .replaceAll("{node}", process.execPath),
    ];
  });
}
