import { describe, expect, it } from "vitest";
import { changePointSchema } from "../../src/config/watch-settings-schema.js";
import { createSeededRandom } from "../../src/scoring/seeded-random.js";
import { findSeriesChange } from "../../src/watch/find-series-change.js";
import type { WatchState } from "../../src/watch/watch-state.js";

/*
 * The change-point method over the watch's own series: drift rounds against one good commit whose
 * scores step down by less than the bar (so no round raised an alarm) are still found, and an unchanged
 * main's series, noisy as this machine's, is not.
 */

const SETTINGS = changePointSchema.parse({});
const head = (index: number): string => index.toString(16).padStart(40, "d");

function series(decode: readonly number[], chat?: readonly number[]): WatchState["series"] {
  return decode.map((score, index) => ({
    head: head(index),
    at: new Date(Date.UTC(2026, 0, index + 1)).toISOString(),
    scores: [{ name: "decode", score }, ...(chat ? [{ name: "chat", score: chat[index] ?? 1 }] : [])],
  }));
}

function noisy(count: number, sd: number, seed: number, level: (index: number) => number): number[] {
  const random = createSeededRandom(seed);
  return Array.from(
    { length: count },
    (_, index) => level(index) * Math.exp(sd * Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())),
  );
}

describe("findSeriesChange", () => {
  it("finds a 2.5% step that no round's bar caught, names the two rounds around it and the scenario", () => {
    const decode = noisy(14, 0.004, 5, (index) => (index >= 8 ? 0.975 : 1));
    const change = findSeriesChange(
      series(
        decode,
        noisy(14, 0.004, 6, () => 1),
      ),
      SETTINGS,
    );
    expect(change).toMatchObject({ scenario: "decode", before: head(7), after: head(8) });
    expect(change?.score).toBeCloseTo(0.975, 2);
    expect(change?.pValue).toBeLessThanOrEqual(SETTINGS.maxPValue);
  });

  it("waits for minSegment rounds after the step", () => {
    const before = [1, 1.001, 0.999, 1, 1.002, 0.998, 1, 1.001, 0.999, 1, 1.001, 0.999];
    expect(findSeriesChange(series([...before, 0.96, 0.961]), SETTINGS)).toBeNull();
    expect(findSeriesChange(series([...before, 0.96, 0.961, 0.959, 0.96]), SETTINGS)).toMatchObject({ before: head(11), after: head(12) });
  });

  it("ignores a step up, a step smaller than minChange, and everything when disabled", () => {
    const up = noisy(12, 0.003, 2, (index) => (index >= 6 ? 1.05 : 1));
    expect(findSeriesChange(series(up), SETTINGS)).toBeNull();
    const small = noisy(12, 0.001, 3, (index) => (index >= 6 ? 0.99 : 1));
    expect(findSeriesChange(series(small), SETTINGS)).toBeNull();
    const down = noisy(12, 0.003, 4, (index) => (index >= 6 ? 0.95 : 1));
    expect(findSeriesChange(series(down), { ...SETTINGS, enabled: false })).toBeNull();
  });

  it("raises nothing on 20 looks at an unchanged main in at least 95 of 100 series spread by 5%", () => {
    let found = 0;
    for (let seed = 1; seed <= 100; seed++) {
      if (
        findSeriesChange(
          series(
            noisy(20, 0.05, seed, () => 1),
            noisy(20, 0.05, seed + 1000, () => 1),
          ),
          SETTINGS,
        )
      )
        found++;
    }
    expect(found).toBeLessThanOrEqual(5);
  });
});
