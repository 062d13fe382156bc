import { afterEach, describe, expect, it, vi } from "vitest";
import {
  DEFAULT_REDELIVER_AFTER_MS,
  MAX_ASKS_WHILE_REFUSED,
  RedeliverAfterRefusal,
  redeliverAfterMs,
} from "../../../bot/store/redeliver-after-refusal.js";
import { MAX_REDELIVERY_REQUESTS } from "../../../src/store/claim-redelivery.js";
import { silentLogger } from "../../../src/logger.js";

describe("SPEEDGATE_REDELIVER_AFTER_MS", () => {
  it("defaults to a minute, takes 0 to turn it off, and names a wrong value", () => {
    expect(redeliverAfterMs({})).toBe(DEFAULT_REDELIVER_AFTER_MS);
    expect(redeliverAfterMs({ SPEEDGATE_REDELIVER_AFTER_MS: "0" })).toBe(0);
    expect(() => redeliverAfterMs({ SPEEDGATE_REDELIVER_AFTER_MS: "1m" })).toThrow(/SPEEDGATE_REDELIVER_AFTER_MS: .* got "1m"/);
  });
});

describe("RedeliverAfterRefusal", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("asks one period after the first refusal, from a minute before it, coalescing the refusals of the period", async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const asked: number[] = [];
    const redeliver = new RedeliverAfterRefusal((since) => Promise.resolve(void asked.push(since.getTime())), silentLogger, 1_000);
    redeliver.notice(503);
    await vi.advanceTimersByTimeAsync(600);
    redeliver.notice(503);
    await vi.advanceTimersByTimeAsync(300);
    expect(asked).toEqual([]);
    await vi.advanceTimersByTimeAsync(200);
    expect(asked).toEqual([1_000_000 - 60_000]);
    // No refusal in the next period: nothing more is asked, and the next refusal starts afresh.
    await vi.advanceTimersByTimeAsync(5_000);
    expect(asked).toHaveLength(1);
    redeliver.notice(500);
    await vi.advanceTimersByTimeAsync(1_100);
    expect(asked).toEqual([1_000_000 - 60_000, 1_006_100 - 60_000]);
    await redeliver.stop();
  });

  it("asks every period while refusals go on, allowing each delivery one more ask per period, up to the cap", async () => {
    vi.useFakeTimers({ now: 0 });
    const asks: Array<{ since: number; maxAsks: number }> = [];
    const redeliver = new RedeliverAfterRefusal(
      (since, maxAsks) => Promise.resolve(void asks.push({ since: since.getTime(), maxAsks })),
      silentLogger,
      1_000,
    );
    // Forty periods of an attack that keeps the app answering 503.
    for (let elapsed = 0; elapsed < 40_000; elapsed += 250) {
      redeliver.notice(503);
      await vi.advanceTimersByTimeAsync(250);
    }
    expect(asks).toHaveLength(40);
    // Always from the first refusal of the attack, so a delivery refused early is still in the window.
    expect(new Set(asks.map((ask) => ask.since))).toEqual(new Set([-60_000]));
    expect(asks.slice(0, 3).map((ask) => ask.maxAsks)).toEqual([
      MAX_REDELIVERY_REQUESTS,
      MAX_REDELIVERY_REQUESTS + 1,
      MAX_REDELIVERY_REQUESTS + 2,
    ]);
    expect(asks.at(-1)?.maxAsks).toBe(MAX_ASKS_WHILE_REFUSED);
    await redeliver.stop();
  });

  it("does nothing when turned off or stopped", async () => {
    vi.useFakeTimers({ now: 0 });
    let asks = 0;
    const off = new RedeliverAfterRefusal(() => Promise.resolve(void asks++), silentLogger, 0);
    off.notice(503);
    const stopped = new RedeliverAfterRefusal(() => Promise.resolve(void asks++), silentLogger, 1_000);
    stopped.notice(500);
    await stopped.stop();
    await vi.advanceTimersByTimeAsync(20_000);
    expect(asks).toBe(0);
  });
});
