import { afterEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_REDELIVER_AFTER_MS, RedeliverAfterRefusal, redeliverAfterMs } from "../../../bot/store/redeliver-after-refusal.js";
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

  it("asks once the refusals have been quiet for the period, from a minute before the first, coalescing them", async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const asked: number[] = [];
    const redeliver = new RedeliverAfterRefusal((since) => Promise.resolve(void asked.push(since.getTime())), silentLogger, 1_000);
    redeliver.notice(503);
    await vi.advanceTimersByTimeAsync(600);
    redeliver.notice(503);
    await vi.advanceTimersByTimeAsync(900);
    expect(asked).toEqual([]);
    await vi.advanceTimersByTimeAsync(200);
    expect(asked).toEqual([1_000_000 - 60_000]);
    await redeliver.stop();
  });

  it("asks at the latest ten periods after the first refusal, however long they go on", async () => {
    vi.useFakeTimers({ now: 0 });
    let asks = 0;
    const redeliver = new RedeliverAfterRefusal(() => Promise.resolve(void asks++), silentLogger, 1_000);
    for (let elapsed = 0; elapsed < 10_500; elapsed += 500) {
      redeliver.notice(503);
      await vi.advanceTimersByTimeAsync(500);
    }
    expect(asks).toBe(1);
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
