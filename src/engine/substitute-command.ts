import { speedgateEntryArgs } from "./locate-speedgate.js";

export interface CommandValues {
  port: number;
  contextLimit: number;
  model: string;
}

/**
 * Fills {port}, {contextLimit}, {model} and {node} in each argument. An argument that is exactly
 * "{speedgate}" becomes the arguments that run this speedgate after {node} (one or several), so the
 * demo and the tests can start `speedgate sim-engine` from the sources or from the bundle.
 */
export function substituteCommand(command: readonly string[], values: CommandValues): string[] {
  return command.flatMap((argument) => {
    if (argument === "{speedgate}") return speedgateEntryArgs();
    return [
      argument
        .replaceAll("{port}", String(values.port))
        .replaceAll("{contextLimit}", String(values.contextLimit))
        .replaceAll("{model}", values.model)
        .replaceAll("{node}", process.execPath),
    ];
  });
}
