import { describe, expect, it } from "vitest";
import { type ArrivalSink, ArrivalQueue } from "../../src/client/defer-arrivals.js";

function recordingSink(log: string[], name: string, onHandle?: () => void): ArrivalSink {
  return {
    handle(item, tMs) {
      log.push(`${name}:${item ? Buffer.from(item).toString() : "end"}@${tMs}`);
      onHandle?.();
    },
  };
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("ArrivalQueue", () => {
  it("handles nothing while arrivals are stamped, then each stream's items in arrival order with their stamps", async () => {
    const queue = new ArrivalQueue();
    const log: string[] = [];
    const a = queue.lane(recordingSink(log, "a"));
    const b = queue.lane(recordingSink(log, "b"));
    a.push(Buffer.from("1"), 1);
    b.push(Buffer.from("1"), 2);
    a.push(Buffer.from("2"), 3);
    a.push(null, 4);
    expect(log).toEqual([]);
    // One turn normally does it all; a loaded machine may need a few 0.1 ms slices.
    while (log.length < 4) await nextTurn();
    expect(log).toEqual(["a:1@1", "a:2@3", "a:end@4", "b:1@2"]);
  });

  it("gives the event loop back between slices of work, and finishes every item", async () => {
    const queue = new ArrivalQueue();
    const log: string[] = [];
    const busy = (): void => {
      const until = performance.now() + 0.06;
      while (performance.now() < until);
    };
    const lane = queue.lane(recordingSink(log, "s", busy));
    for (let index = 0; index < 20; index++) lane.push(Buffer.from(String(index)), index);
    await nextTurn();
    // 0.06 ms an item against a 0.1 ms slice: the first turn stops after two.
    expect(log.length).toBeLessThan(20);
    while (log.length < 20) await nextTurn();
    expect(log.at(-1)).toBe("s:19@19");
  });

  it("flushes one stream's items at once, leaving the others queued", async () => {
    const queue = new ArrivalQueue();
    const log: string[] = [];
    const a = queue.lane(recordingSink(log, "a"));
    const b = queue.lane(recordingSink(log, "b"));
    a.push(Buffer.from("x"), 1);
    b.push(Buffer.from("y"), 2);
    b.flush();
    expect(log).toEqual(["b:y@2"]);
    while (log.length < 2) await nextTurn();
    expect(log).toEqual(["b:y@2", "a:x@1"]);
  });

  it("parses at once rather than hold more than 16 MiB unparsed", () => {
    const queue = new ArrivalQueue();
    const log: string[] = [];
    const lane = queue.lane(recordingSink(log, "s"));
    lane.push(Buffer.alloc(10 * 1024 * 1024, 0x61), 1);
    expect(log).toEqual([]);
    lane.push(Buffer.alloc(8 * 1024 * 1024, 0x62), 2);
    expect(log).toHaveLength(1);
  });
});
