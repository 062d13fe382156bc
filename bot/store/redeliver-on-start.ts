import type { Probot } from "probot";
import { type RedeliveryReport, redeliverFailedDeliveries } from "../../src/github/redeliver-failed-deliveries.js";
import type { Logger } from "../../src/logger.js";
import { claimRedelivery } from "../../src/store/claim-redelivery.js";
import type { Database } from "../../src/store/database.js";

/** How far back the app looks for failed deliveries at start; GitHub keeps the log for three days. */
export const DEFAULT_REDELIVER_HOURS = 6;

export function redeliverHours(env: NodeJS.ProcessEnv): number {
  const raw = env.SPEEDGATE_REDELIVER_HOURS?.trim();
  if (!raw) return DEFAULT_REDELIVER_HOURS;
  const hours = Number(raw);
  if (!Number.isFinite(hours) || hours < 0 || hours > 72) {
    throw new Error(
      `SPEEDGATE_REDELIVER_HOURS: expected a number of hours from 0 (off) to 72 (GitHub keeps deliveries three days), got ` +
        `${JSON.stringify(raw)}`,
    );
  }
  return hours;
}

/**
 * Asks GitHub to send again the deliveries that failed while the app was away (authenticated as the
 * App, which the delivery log requires). A failure here is logged, never fatal: the app serves anyway.
 */
export async function redeliverOnStart(
  app: Probot,
  database: Database,
  options: { hours: number; logger: Logger; now?: Date },
): Promise<RedeliveryReport | null> {
  if (options.hours === 0) return null;
  const since = new Date((options.now ?? new Date()).getTime() - options.hours * 3_600_000);
  return await redeliverSince(app, database, { since, logger: options.logger });
}

/**
 * Asks GitHub to send again what failed since `since` (at start, after a database outage, after the
 * app's own 5xx answers), each delivery at most `maxAsks` times in all. Never throws.
 */
export async function redeliverSince(
  app: Probot,
  database: Database,
  options: { since: Date; logger: Logger; maxAsks?: number },
): Promise<RedeliveryReport | null> {
  const { since } = options;
  try {
    const client = await app.auth();
    return await redeliverFailedDeliveries({
      client,
      since,
      logger: options.logger,
      claim: (candidate) => claimRedelivery(database.pool, candidate, options.maxAsks),
    });
  } catch (error) {
    options.logger.warn(
      `redelivery: could not read or redeliver the failed deliveries since ${since.toISOString()}: ${(error as Error).message}`,
    );
    return null;
  }
}
