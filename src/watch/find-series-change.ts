import type { ChangePointSettings } from "../config/watch-settings-schema.js";
import { detectChangePoints } from "../scoring/detect-change-point.js";
import type { WatchState } from "./watch-state.js";

/*
 * The change-point method over the watch's own series (speedgate watch without the app): the drift
 * rounds measured against one good commit, each scenario's log scores in order. A drift that stays
 * inside watch.maxDrift (or whose rounds are too noisy for one round's interval to clear it) can still
 * be a step in the series: E-divisive means (src/scoring/detect-change-point.ts) finds it with a
 * permutation p-value once minSegment rounds lie on each side. Only a step down by at least minChange
 * counts; the latest such step of any scenario is the one reported.
 */

export interface SeriesChange {
  scenario: string | null;
  /** The head of the last round before the step, and of the first after it: the range to bisect. */
  before: string;
  after: string;
  /** exp(mean after − mean before) of the log scores: the step's size as a speedup. */
  score: number;
  pValue: number;
}

export function findSeriesChange(series: WatchState["series"], settings: ChangePointSettings): SeriesChange | null {
  if (!settings.enabled) return null;
  const names = [...new Set(series.flatMap((entry) => entry.scores.map((score) => score.name)))];
  let found: (SeriesChange & { at: number }) | null = null;
  for (const name of names) {
    const points = series.flatMap((entry, at) => {
      const score = entry.scores.find((candidate) => candidate.name === name)?.score;
      return score === undefined ? [] : [{ at, head: entry.head, value: Math.log(score) }];
    });
    if (points.length < 2 * settings.minSegment) continue;
    const changes = detectChangePoints(
      points.map((point) => point.value),
      { maxPValue: settings.maxPValue, minSegment: settings.minSegment, permutations: settings.permutations },
    );
    for (const change of changes) {
      const score = Math.exp(change.meanAfter - change.meanBefore);
      const before = points[change.index - 1];
      const after = points[change.index];
      if (!before || !after || score > 1 - settings.minChange) continue;
      if (!found || after.at > found.at)
        found = { scenario: name, before: before.head, after: after.head, score, pValue: change.pValue, at: after.at };
    }
  }
  if (!found) return null;
  const { at: _at, ...change } = found;
  return change;
}
