import { describe, expect, it } from "vitest";
import { judgeDrift } from "../../src/watch/judge-drift.js";
import { advanceWatchState, parseWatchState, startWatchState } from "../../src/watch/watch-state.js";

const good = "a".repeat(40);
const head = "b".repeat(40);
const now = new Date("2026-03-01T04:00:00Z");
const judged = (score: number, low: number, high: number) =>
  judgeDrift([{ name: "decode", estimate: { score, interval: { low, high } } }], 0.97);

describe("the watch's state file", () => {
  it("keeps the good commit while main holds its speed, so small slowdowns add up against one reference", () => {
    const state = startWatchState(good, "watch.since: 7 days", now);
    const after = advanceWatchState(state, { good, head, judgement: judged(0.99, 0.97, 1.01), outcome: null, now });
    expect(after.good).toBe(good);
    expect(after.last).toEqual({ head, at: now.toISOString(), alarm: false, failed: false });
    // Even a head that is a little slower, within the bar: still the same good commit.
    expect(advanceWatchState(after, { good, head, judgement: judged(0.975, 0.96, 0.99), outcome: null, now }).good).toBe(good);
  });

  it("moves to the head once a drift is reported, and records what was found", () => {
    const state = startWatchState(good, "since", now);
    const after = advanceWatchState(state, { good, head, judgement: judged(0.9, 0.89, 0.91), outcome: "merge 11 (#11)", now });
    expect(after.good).toBe(head);
    expect(after.goodBecause).toMatch(/drift .* reported/);
    expect(after.reported).toEqual([
      {
        good,
        bad: head,
        at: now.toISOString(),
        scenarios: [{ name: "decode", score: 0.9, low: 0.89, high: 0.91 }],
        outcome: "merge 11 (#11)",
      },
    ]);
  });

  it("moves to a head faster beyond doubt, and stays put after a round that failed", () => {
    const state = startWatchState(good, "since", now);
    expect(advanceWatchState(state, { good, head, judgement: judged(1.08, 1.05, 1.1), outcome: null, now }).good).toBe(head);
    const failed = advanceWatchState(state, {
      good,
      head,
      judgement: judgeDrift([{ name: null, estimate: null }], 0.97),
      outcome: null,
      now,
    });
    expect(failed.good).toBe(good);
    expect(failed.last?.failed).toBe(true);
  });

  it("reads back what it wrote, and names the file and the field when it cannot", () => {
    const state = startWatchState(good, "since", now);
    expect(parseWatchState(JSON.stringify(state), "watch.json")).toEqual(state);
    expect(() => parseWatchState("{", "watch.json")).toThrow(/watch\.json: expected the watch's JSON state/);
    expect(() => parseWatchState(JSON.stringify({ ...state, good: "HEAD" }), "watch.json")).toThrow(
      /watch\.json: .*good: expected a full commit SHA/,
    );
  });

  it("keeps the drift rounds against the good commit as its series, and empties it when the good commit moves", () => {
    const state = startWatchState(good, "since", now);
    const once = advanceWatchState(state, { good, head, judgement: judged(0.99, 0.97, 1.01), outcome: null, now });
    const twice = advanceWatchState(once, { good, head, judgement: judged(0.98, 0.96, 1.0), outcome: null, now });
    expect(twice.series.map((entry) => entry.scores)).toEqual([[{ name: "decode", score: 0.99 }], [{ name: "decode", score: 0.98 }]]);
    // A round against another commit (--good for one run) says nothing of this series.
    expect(advanceWatchState(twice, { good: head, head, judgement: judged(0.99, 0.97, 1.01), outcome: null, now }).series).toHaveLength(2);
    // A reported drift moves the good commit: the series starts again.
    expect(advanceWatchState(twice, { good, head, judgement: judged(0.9, 0.89, 0.91), outcome: null, now }).series).toEqual([]);
    const changed = advanceWatchState(twice, {
      good,
      head,
      judgement: judged(0.98, 0.96, 1.0),
      outcome: null,
      change: { scenario: "decode", before: good, after: head, score: 0.975, pValue: 0.005 },
      now,
    });
    expect(changed).toMatchObject({ good: head, series: [] });
    expect(changed.goodBecause).toMatch(/change point .* reported/);
    expect(changed.reported.at(-1)).toMatchObject({ good, bad: head, scenarios: [{ name: "decode", score: 0.975 }] });
  });

  it("reads a state file written before the series existed", () => {
    const { series: _series, ...older } = startWatchState(good, "since", now);
    expect(parseWatchState(JSON.stringify(older), "watch.json").series).toEqual([]);
  });
});
