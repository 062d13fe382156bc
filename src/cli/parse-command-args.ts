import { type ParseArgsConfig, parseArgs } from "node:util";
import { UsageError } from "./command.js";

type Options = NonNullable<ParseArgsConfig["options"]>;

/** node:util parseArgs with its errors turned into usage errors that name the command. */
export function parseCommandArgs<T extends Options>(command: string, args: string[], options: T, allowPositionals = false) {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (error) {
    throw new UsageError(`speedgate ${command}: ${(error as Error).message}`);
  }
}
