import { describe, expect, it } from "vitest";
import { createDecodeBatch } from "../../src/sim-engine/decode-batch.js";

describe("createDecodeBatch", () => {
  it("runs the decode clock slower the more streams decode, and faster again when one leaves", () => {
    const batch = createDecodeBatch(0.5);
    const notified: string[] = [];
    const a = batch.join(() => notified.push("a"));
    const lone = batch.wallAt(1100) - batch.wallAt(1000);
    const b = batch.join(() => notified.push("b"));
    const c = batch.join(() => notified.push("c"));
    // Three streams: each step takes 1 + 0.5 · 2 = 2 times as long.
    const crowded = batch.wallAt(1100) - batch.wallAt(1000);
    expect(crowded / lone).toBeCloseTo(2, 6);
    // A stream that leaves (done, or turned to filler) tells the others their pace changed; never itself.
    notified.length = 0;
    c.leave();
    c.leave();
    expect(notified.sort()).toEqual(["a", "b"]);
    expect(batch.size()).toBe(2);
    const fewer = batch.wallAt(1100) - batch.wallAt(1000);
    expect(fewer / lone).toBeCloseTo(1.5, 6);
    a.leave();
    b.leave();
    expect(batch.size()).toBe(0);
  });

  it("is the wall clock with a batch that costs nothing, and tells no one", () => {
    const batch = createDecodeBatch(0);
    let told = 0;
    batch.join(() => told++);
    batch.join(() => told++).leave();
    expect(batch.wallAt(1100) - batch.wallAt(1000)).toBeCloseTo(100, 6);
    expect(told).toBe(0);
  });
});
