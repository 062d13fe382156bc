import type { Logger } from "../../src/logger.js";

/** How long the app waits without answering another delivery 5xx before asking GitHub for the failed ones. */
export const DEFAULT_REDELIVER_AFTER_MS = 60_000;
/** However long the refusals go on, the failed deliveries are asked for at least this often (× the quiet period). */
const MAX_WAIT_FACTOR = 10;
/** Deliveries refused a little before the first refusal noticed are asked for too (GitHub's clock against ours). */
const MARGIN_MS = 60_000;

/** SPEEDGATE_REDELIVER_AFTER_MS: the quiet period in ms, 0 to turn this off. */
export function redeliverAfterMs(env: NodeJS.ProcessEnv): number {
  const raw = env.SPEEDGATE_REDELIVER_AFTER_MS?.trim();
  if (!raw) return DEFAULT_REDELIVER_AFTER_MS;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`SPEEDGATE_REDELIVER_AFTER_MS: expected a whole number of milliseconds, 0 to turn it off, got ${JSON.stringify(raw)}`);
  return value;
}

/**
 * The app itself answered a delivery 5xx (the webhook body budget was full, a handler failed) or 408
 * (its body came too slowly). GitHub keeps such a delivery as failed and never sends it again by
 * itself, so a card, a `/rescore` or a check would be lost. Once the app has gone `quietMs` without
 * another such answer (an attack holding the endpoint may still be going on: a new attempt sent during
 * it could fail again), or at the latest ten quiet periods after the first, it asks GitHub for the
 * deliveries that failed since, as it does at start (claimed per delivery, at most three asks each).
 * The asks are coalesced: an attacker's refused requests cost one look at the delivery log per period,
 * and their own requests are not in GitHub's log, so nothing of theirs is ever sent again.
 */
export class RedeliverAfterRefusal {
  #firstAt: number | null = null;
  #lastAt = 0;
  #timer: NodeJS.Timeout | null = null;
  #sweeping: Promise<void> | null = null;
  #stopped = false;

  constructor(
    private readonly sweep: (since: Date) => Promise<unknown>,
    private readonly logger: Logger,
    private readonly quietMs = DEFAULT_REDELIVER_AFTER_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The app answered a delivery with `status`. */
  notice(status: number): void {
    if (this.quietMs === 0 || this.#stopped) return;
    const at = this.now();
    if (this.#firstAt === null) {
      this.logger.warn(`the app answered a delivery ${status}; deliveries that failed will be asked for again once ${this.quietMs} ms pass without another such answer`);
    }
    this.#firstAt ??= at;
    this.#lastAt = at;
    this.#arm();
  }

  #arm(): void {
    if (this.#firstAt === null || this.#sweeping) return;
    if (this.#timer) clearTimeout(this.#timer);
    const due = Math.min(this.#lastAt + this.quietMs, this.#firstAt + this.quietMs * MAX_WAIT_FACTOR);
    this.#timer = setTimeout(() => this.#fire(), Math.max(0, due - this.now()));
    this.#timer.unref();
  }

  #fire(): void {
    this.#timer = null;
    const first = this.#firstAt;
    if (first === null) return;
    this.#firstAt = null;
    const since = new Date(first - MARGIN_MS);
    this.logger.info(`asking GitHub for the deliveries that failed since ${since.toISOString()} (the app answered some 5xx or 408)`);
    this.#sweeping = this.sweep(since)
      .then(
        () => undefined,
        (error: unknown) => this.logger.warn(`redelivery after refusals failed: ${(error as Error).message}`),
      )
      .finally(() => {
        this.#sweeping = null;
        // Refusals noticed while the sweep ran get their own.
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
