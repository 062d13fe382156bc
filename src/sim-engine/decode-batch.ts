import { performance } from "node:perf_hooks";

/** One stream decoding in the batch: told when the batch's pace changes, so it can reschedule its next token. */
export interface BatchMember {
  /** Leaves the batch (its answer is done, or it turned to filler that costs no decode work); idempotent. */
  leave(): void;
  /** This stream's decode clock now: the batch's, or for a starved stream the clock that runs only while no other stream decodes. */
  clock(): number;
  /** The wall time at which this stream's decode clock reaches `at` at the present pace; Infinity while a starved stream waits. */
  wallAt(at: number): number;
}

/**
 * The reference engine's continuous batch: every stream still decoding shares the GPU, so each step
 * takes longer the more streams are in it (1 + costPerStream · (n − 1) times a lone stream's step).
 * Time is kept as a shared "decode clock" that runs at the batch's pace, so a stream's token i is due
 * when the clock reaches its start plus ttft + i · itl, however the batch changed meanwhile. With
 * costPerStream 0 the clock is the wall clock and every stream keeps its own pace, as before.
 *
 * A starved stream (the starve cheat: a scheduler that gives some requests no decode step while
 * others decode) is on a clock of its own that stands still while any other stream decodes, and then
 * runs at the pace of the starved streams' own batch. It costs the others nothing while it waits.
 */
export interface DecodeBatch {
  /** The decode clock now (milliseconds of a lone stream's work since the engine started). */
  clock(): number;
  /** The wall time (performance.now()) at which the decode clock reaches `at`, at the batch's present pace. */
  wallAt(at: number): number;
  /** Joins a stream; `onPaceChange` runs whenever another stream joins or leaves. */
  join(onPaceChange: () => void, options?: { starved?: boolean }): BatchMember;
  /** Streams decoding now, starved ones included. */
  size(): number;
}

export function createDecodeBatch(costPerStream: number): DecodeBatch {
  const members = new Set<() => void>();
  const starved = new Set<() => void>();
  let anchorWall = performance.now();
  let anchorClock = 0;
  let anchorStarved = 0;
  const slowdown = (): number => 1 + costPerStream * Math.max(0, members.size - 1);
  const starvedSlowdown = (): number => 1 + costPerStream * Math.max(0, starved.size - 1);
  const clock = (): number => anchorClock + (performance.now() - anchorWall) / slowdown();
  const wallAt = (at: number): number => anchorWall + (at - anchorClock) * slowdown();
  const starvedClock = (): number => anchorStarved + (members.size === 0 ? (performance.now() - anchorWall) / starvedSlowdown() : 0);
  const starvedWallAt = (at: number): number => {
    if (members.size === 0) return anchorWall + (at - anchorStarved) * starvedSlowdown();
    return at <= anchorStarved ? anchorWall : Number.POSITIVE_INFINITY;
  };
  /** Settles both clocks at the old pace before the batch changes, then tells every other stream. */
  const change = (apply: () => void, changed: () => void): void => {
    const now = performance.now();
    if (members.size === 0) anchorStarved += (now - anchorWall) / starvedSlowdown();
    anchorClock += (now - anchorWall) / slowdown();
    anchorWall = now;
    const anyStarved = starved.size > 0;
    apply();
    if (costPerStream > 0 || anyStarved || starved.size > 0) {
      for (const notify of [...members, ...starved]) if (notify !== changed) notify();
    }
  };
  return {
    clock,
    wallAt,
    size: () => members.size + starved.size,
    join(onPaceChange, options = {}) {
      // A distinct function per member, so two streams with the same callback stay two members.
      const member = (): void => onPaceChange();
      const set = options.starved === true ? starved : members;
      change(() => set.add(member), member);
      let left = false;
      return {
        leave() {
          if (left) return;
          left = true;
          change(() => set.delete(member), member);
        },
        clock: options.starved === true ? starvedClock : clock,
        wallAt: options.starved === true ? starvedWallAt : wallAt,
      };
    },
  };
}
