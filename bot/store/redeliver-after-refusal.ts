import type { Logger } from "../../src/logger.js";
import { MAX_REDELIVERY_REQUESTS } from "../../src/store/claim-redelivery.js";

/** How long after a first 5xx answer the app asks GitHub for the failed deliveries, and how often while such answers go on. */
export const DEFAULT_REDELIVER_AFTER_MS = 60_000;
/** Deliveries refused a little before the first refusal noticed are asked for too (GitHub's clock against ours). */
const MARGIN_MS = 60_000;
/**
 * However long refusals go on, one delivery is asked for at most this many times: a delivery whose
 * every attempt fails (a handler that always throws) must not be asked for every period for ever.
 * At the default period this is half an hour of refusals.
 */
export const MAX_ASKS_WHILE_REFUSED = 30;

/** SPEEDGATE_REDELIVER_AFTER_MS: the period in ms, 0 to turn this off. */
export function redeliverAfterMs(env: NodeJS.ProcessEnv): number {
  const raw = env.SPEEDGATE_REDELIVER_AFTER_MS?.trim();
  if (!raw) return DEFAULT_REDELIVER_AFTER_MS;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw new Error(`SPEEDGATE_REDELIVER_AFTER_MS: expected a whole number of milliseconds, 0 to turn it off, got ${JSON.stringify(raw)}`);
  return value;
}

/**
 * The app itself answered a delivery 5xx (the webhook body budget was full, a handler failed) or 408
 * (its body came too slowly). GitHub keeps such a delivery as failed and never sends it again by
 * itself, so a card, a `/rescore` or a check would be lost. One period (`periodMs`) after the first
 * such answer, and again every period for as long as such answers go on, the app asks GitHub for the
 * deliveries that failed since the first of them, as it does at start (claimed per delivery). Waiting
 * for a quiet period instead let an attacker's refused requests put it off for as long as the attack
 * lasted, and the three asks a delivery gets at start were spent ten minutes apart: over a 30-minute
 * attack about three quarters of the cards were lost. So each period in a row with refusals allows one
 * more ask of a delivery (three, then four, …, up to MAX_ASKS_WHILE_REFUSED). The asks are coalesced:
 * an attacker's refused requests cost one look at the delivery log per period, and their own requests
 * are not in GitHub's log, so nothing of theirs is ever sent again.
 */
export class RedeliverAfterRefusal {
  /** When the first refusal of the current run of periods with refusals was noticed. */
  #streakSince: number | null = null;
  /** Periods in a row whose refusals were asked for. */
  #streak = 0;
  /** A refusal was noticed since the last ask. */
  #pending = false;
  #timer: NodeJS.Timeout | null = null;
  #sweeping: Promise<void> | null = null;
  #stopped = false;

  constructor(
    private readonly sweep: (since: Date, maxAsks: number) => Promise<unknown>,
    private readonly logger: Logger,
    private readonly periodMs = DEFAULT_REDELIVER_AFTER_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The app answered a delivery with `status`. */
  notice(status: number): void {
    if (this.periodMs === 0 || this.#stopped) return;
    if (this.#streakSince === null) {
      this.logger.warn(
        `the app answered a delivery ${status}; deliveries that failed will be asked for again in ${this.periodMs} ms, and every ` +
          `${this.periodMs} ms while such answers go on`,
      );
      this.#streakSince = this.now();
    }
    this.#pending = true;
    if (!this.#timer && !this.#sweeping) this.#arm();
  }

  #arm(): void {
    this.#timer = setTimeout(() => this.#fire(), this.periodMs);
    this.#timer.unref();
  }

  #fire(): void {
    this.#timer = null;
    const first = this.#streakSince;
    if (!this.#pending || first === null) {
      // A whole period without a refusal: the next one starts afresh.
      this.#streakSince = null;
      this.#streak = 0;
      return;
    }
    this.#pending = false;
    this.#streak++;
    const maxAsks = Math.min(MAX_REDELIVERY_REQUESTS + this.#streak - 1, MAX_ASKS_WHILE_REFUSED);
    const since = new Date(first - MARGIN_MS);
    this.logger.info(
      `asking GitHub for the deliveries that failed since ${since.toISOString()} (the app answered some 5xx or 408; period ` +
        `${this.#streak} in a row, up to ${maxAsks} asks a delivery)`,
    );
    this.#sweeping = this.sweep(since, maxAsks)
      .then(
        () => undefined,
        (error: unknown) => this.logger.warn(`redelivery after refusals failed: ${(error as Error).message}`),
      )
      .finally(() => {
        this.#sweeping = null;
        // One more period decides whether the refusals went on.
        if (!this.#stopped) this.#arm();
      });
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#sweeping;
  }
}
