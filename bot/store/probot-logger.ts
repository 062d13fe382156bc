import type { Probot } from "probot";
import type { Logger } from "../../src/logger.js";

/** The core's logger onto Probot's pino logger, so the store's lines land in the app's log with its format. */
export function probotLogger(app: Probot): Logger {
  const log = app.log.child({ name: "speedgate-store" });
  return {
    debug: (message) => log.debug(message),
    info: (message) => log.info(message),
    warn: (message) => log.warn(message),
    error: (message) => log.error(message),
  };
}
