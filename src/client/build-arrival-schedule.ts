import { createSeededRandom } from "../scoring/seeded-random.js";

/**
 * Start offsets (ms from the benchmark's start) of `count` requests: a fixed interval, or Poisson
 * arrivals with that mean interval drawn from a seeded generator, so both engines get the very same
 * schedule.
 */
export function buildArrivalSchedule(count: number, intervalMs: number, arrival: "fixed" | "poisson", seed: number): number[] {
  const offsets = new Array<number>(count);
  if (arrival === "fixed") {
    for (let index = 0; index < count; index++) offsets[index] = index * intervalMs;
    return offsets;
  }
  const random = createSeededRandom(seed);
  let at = 0;
  for (let index = 0; index < count; index++) {
    offsets[index] = at;
    at += -Math.log(1 - random()) * intervalMs;
  }
  return offsets;
}
