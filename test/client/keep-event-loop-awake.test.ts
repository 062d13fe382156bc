import { performance } from "node:perf_hooks";
import { afterEach, describe, expect, it } from "vitest";
import {
  BUSY_POLL_MIN_CPUS,
  IDLE_TURN_PAUSE_MS,
  describeBusyPoll,
  eventLoopAwakeHolders,
  keepEventLoopAwake,
  resolveBusyPoll,
} from "../../src/client/keep-event-loop-awake.js";

/**
 * Share of `ms` the event loop spent working rather than asleep in epoll_wait (event-loop
 * utilization): near 0 while a lone timer is awaited, near 1 while the loop spins.
 */
async function utilizationDuring(ms: number): Promise<number> {
  const before = performance.eventLoopUtilization();
  await new Promise<void>((resolve) => setTimeout(resolve, ms));
  return performance.eventLoopUtilization(before).utilization;
}

describe("resolveBusyPoll", () => {
  it("turns auto on only with enough CPUs, and on/off whatever the machine", () => {
    expect(resolveBusyPoll("auto", BUSY_POLL_MIN_CPUS)).toBe(true);
    expect(resolveBusyPoll("auto", BUSY_POLL_MIN_CPUS - 1)).toBe(false);
    expect(resolveBusyPoll("on", 1)).toBe(true);
    expect(resolveBusyPoll("off", 64)).toBe(false);
  });
});

describe("describeBusyPoll", () => {
  it("says whether the client spins and which setting and machine decided it", () => {
    expect(describeBusyPoll("auto", 16)).toBe(
      "client busy poll on: the event loop stays awake while streams are in flight (bench.busyPoll auto, 16 CPUs)",
    );
    expect(describeBusyPoll("auto", 2)).toBe("client busy poll off (bench.busyPoll auto, 2 CPUs, under 4)");
    expect(describeBusyPoll("on", 1)).toMatch(/^client busy poll on: .*\(bench\.busyPoll on\)$/);
    expect(describeBusyPoll("off", 64)).toBe("client busy poll off (bench.busyPoll off)");
  });
});

describe("keepEventLoopAwake", () => {
  afterEach(() => expect(eventLoopAwakeHolders()).toBe(0));

  it("counts nested holds and stops once all are released, a second release doing nothing", () => {
    const first = keepEventLoopAwake();
    const second = keepEventLoopAwake();
    expect(eventLoopAwakeHolders()).toBe(2);
    first();
    first();
    expect(eventLoopAwakeHolders()).toBe(1);
    second();
    expect(eventLoopAwakeHolders()).toBe(0);
  });

  it("keeps the loop out of epoll's sleep while held, and lets it sleep again once released", async () => {
    expect(await utilizationDuring(100)).toBeLessThan(0.5);
    const release = keepEventLoopAwake();
    try {
      expect(await utilizationDuring(100)).toBeGreaterThan(0.9);
    } finally {
      release();
    }
    // The spin's last immediate runs once more, then nothing is pending.
    expect(await utilizationDuring(100)).toBeLessThan(0.5);
  });

  it("waits a little in each idle turn, so an idle loop does not turn (and make garbage) a million times a second", async () => {
    let turns = 0;
    let counting = true;
    const count = (): void => {
      turns++;
      if (counting) setImmediate(count);
    };
    const release = keepEventLoopAwake();
    const started = performance.now();
    try {
      setImmediate(count);
      await new Promise<void>((resolve) => setTimeout(resolve, 200));
    } finally {
      counting = false;
      release();
    }
    // Every turn runs the counter once; turns that wait IDLE_TURN_PAUSE_MS allow this many (a slower machine turns less, and a
    // pause cut short after a scavenge is why there is room); the loop without the wait turned 130,000 times here.
    const mostTurns = (performance.now() - started) / IDLE_TURN_PAUSE_MS;
    expect(turns).toBeGreaterThan(0);
    expect(turns).toBeLessThan(mostTurns * 2);
  });
});
