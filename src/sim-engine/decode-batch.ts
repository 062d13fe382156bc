import { performance } from "node:perf_hooks";

/** One stream decoding in the batch: told when the batch's pace changes, so it can reschedule its next token. */
export interface BatchMember {
  /** Leaves the batch (its answer is done, or it turned to filler that costs no decode work); idempotent. */
  leave(): void;
}

/**
 * The reference engine's continuous batch: every stream still decoding shares the GPU, so each step
 * takes longer the more streams are in it (1 + costPerStream · (n − 1) times a lone stream's step).
 * Time is kept as a shared "decode clock" that runs at the batch's pace, so a stream's token i is due
 * when the clock reaches its start plus ttft + i · itl, however the batch changed meanwhile. With
 * costPerStream 0 the clock is the wall clock and every stream keeps its own pace, as before.
 */
export interface DecodeBatch {
  /** The decode clock now (milliseconds of a lone stream's work since the engine started). */
  clock(): number;
  /** The wall time (performance.now()) at which the decode clock reaches `at`, at the batch's present pace. */
  wallAt(at: number): number;
  /** Joins a stream; `onPaceChange` runs whenever another stream joins or leaves. */
  join(onPaceChange: () => void): BatchMember;
  /** Streams decoding now. */
  size(): number;
}

export function createDecodeBatch(costPerStream: number): DecodeBatch {
  const members = new Set<() => void>();
  let anchorWall = performance.now();
  let anchorClock = 0;
  const slowdown = (): number => 1 + costPerStream * Math.max(0, members.size - 1);
  const clock = (): number => anchorClock + (performance.now() - anchorWall) / slowdown();
  /** Settles the clock at the old pace before the batch changes, then tells every other stream. */
  const change = (apply: () => void, changed: () => void): void => {
    const now = performance.now();
    anchorClock += (now - anchorWall) / slowdown();
    anchorWall = now;
    apply();
    if (costPerStream > 0) for (const notify of [...members]) if (notify !== changed) notify();
  };
  return {
    clock,
    wallAt: (at) => anchorWall + (at - anchorClock) * slowdown(),
    size: () => members.size,
    join(onPaceChange) {
      // A distinct function per member, so two streams with the same callback stay two members.
      const member = (): void => onPaceChange();
      change(() => members.add(member), member);
      let left = false;
      return {
        leave() {
          if (left) return;
          left = true;
          change(() => members.delete(member), member);
        },
      };
    },
  };
}
