import { Logger as GraphileLogger } from "graphile-worker";
import type { Logger } from "../logger.js";

/** graphile-worker's logger onto the core's: its per-job info lines are debug here, so a busy app's log stays readable. */
export function createGraphileLogger(logger: Logger): GraphileLogger {
  return new GraphileLogger(() => (level, message) => {
    const line = `job queue: ${message}`;
    // LogLevel is a const enum of strings, which isolated modules cannot import.
    const name = String(level);
    if (name === "error") logger.error(line);
    else if (name === "warning") logger.warn(line);
    else logger.debug(line);
  });
}
