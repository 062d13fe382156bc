import { setTimeout as delay } from "node:timers/promises";
import type { Probot } from "probot";
import type { Logger } from "../../src/logger.js";
import type { Database } from "../../src/store/database.js";
import { redeliverSince } from "./redeliver-on-start.js";

/** How often the database is asked whether it is back, once a delivery could not be stored. */
export const OUTAGE_PROBE_MS = 2_000;
/** Deliveries refused a little before the first failure noticed are asked for too. */
const OUTAGE_MARGIN_MS = 60_000;

/**
 * While the database is away the app answers deliveries 5xx, and GitHub never sends a failed delivery
 * again by itself. The first delivery that could not be stored starts this watcher: once the database
 * answers again, the app asks GitHub (as the App) for the deliveries that failed since, as it does at start.
 */
export class OutageRedelivery {
  #since: number | null = null;
  #watching: Promise<void> | null = null;
  readonly #stop = new AbortController();

  constructor(
    private readonly app: Probot,
    private readonly database: Database,
    private readonly logger: Logger,
    private readonly probeMs = OUTAGE_PROBE_MS,
  ) {}

  /** A delivery's work could not be stored at this moment. */
  noticeFailure(at = Date.now()): void {
    this.#since = Math.min(this.#since ?? at, at);
    this.#watching ??= this.#watch().finally(() => {
      this.#watching = null;
    });
  }

  async #watch(): Promise<void> {
    this.logger.warn(
      "database: a delivery's work could not be stored (answered 5xx); failed deliveries will be asked for again once the database answers",
    );
    for (;;) {
      try {
        await delay(this.probeMs, undefined, { signal: this.#stop.signal });
      } catch {
        return;
      }
      try {
        await this.database.pool.query("SELECT 1");
      } catch {
        continue;
      }
      const since = new Date((this.#since ?? Date.now()) - OUTAGE_MARGIN_MS);
      this.#since = null;
      this.logger.info(`database: answering again; asking GitHub for the deliveries that failed since ${since.toISOString()}`);
      await redeliverSince(this.app, this.database, { since, logger: this.logger });
      return;
    }
  }

  async stop(): Promise<void> {
    this.#stop.abort();
    await this.#watching;
  }
}
