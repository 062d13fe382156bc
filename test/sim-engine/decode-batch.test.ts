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

  it("holds a starved stream's clock still while any other stream decodes, and runs it once they are gone", () => {
    const batch = createDecodeBatch(0.5);
    const other = batch.join(() => undefined);
    let told = 0;
    const starved = batch.join(() => told++, { starved: true });
    // While the other decodes, the starved stream's next token is due at no wall time at all, and it slows no one.
    expect(starved.wallAt(starved.clock() + 10)).toBe(Number.POSITIVE_INFINITY);
    const now = other.clock();
    expect(other.wallAt(now + 100) - other.wallAt(now)).toBeCloseTo(100, 6);
    const held = starved.clock();
    // The other leaves: the starved stream is told, and its clock runs at a lone stream's pace from there.
    other.leave();
    expect(told).toBe(1);
    expect(starved.clock()).toBeGreaterThanOrEqual(held);
    expect(starved.wallAt(held + 110) - starved.wallAt(held + 10)).toBeCloseTo(100, 6);
    expect(Number.isFinite(starved.wallAt(held + 10))).toBe(true);
    // A newcomer stops it again.
    batch.join(() => undefined);
    expect(told).toBe(2);
    expect(starved.wallAt(starved.clock() + 10)).toBe(Number.POSITIVE_INFINITY);
    expect(batch.size()).toBe(2);
  });
});
