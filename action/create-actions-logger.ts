import * as core from "@actions/core";
import type { Logger } from "../src/logger.js";

/** The core's Logger on the runner's log: warnings and errors become annotations. */
export function createActionsLogger(): Logger {
  return {
    debug: (message) => core.debug(message),
    info: (message) => core.info(message),
    warn: (message) => core.warning(message),
    error: (message) => core.error(message),
  };
}
