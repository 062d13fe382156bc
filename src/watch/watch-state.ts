import { z } from "zod";
import type { DriftJudgement } from "./judge-drift.js";

/*
 * Where `speedgate watch` (and the action's mode: watch) keeps the last commit it found good, without
 * the app: a small JSON file (--state, the action's `watch-state`), which the scheduled workflow keeps
 * between runs with actions/cache (docs/watching-main.md). The app keeps main's series in its own
 * database instead and reads only the cards.
 *
 * The good commit is the reference every drift round is measured against, and it stays put while
 * main holds its speed: a drift made of small slowdowns then adds up against one fixed commit (moving
 * the reference to each head that merely passed would let 1% a day through forever), and the fixed
 * base keeps its cached baseline image warm. It moves to the head in two cases only: main got faster
 * beyond doubt in every scenario (the better level is the one to hold), or a drift was found and
 * reported (the team was told; from then on the watch measures against the slower main, so the same
 * drift is not reported every night).
 */

const sha = z.string().regex(/^[0-9a-f]{40}$/, { error: "expected a full commit SHA" });

export const watchStateSchema = z.object({
  version: z.literal(1),
  /** The commit drift rounds are measured against. */
  good: sha,
  /** When it became the good commit (ISO 8601) and why. */
  goodSince: z.string(),
  goodBecause: z.string().max(500),
  /** The drifts found and reported, newest last (the last 50 kept). */
  reported: z
    .array(
      z.object({
        good: sha,
        bad: sha,
        at: z.string(),
        scenarios: z.array(z.object({ name: z.string().nullable(), score: z.number(), low: z.number(), high: z.number() })),
        /** The bisection's conclusion, when the watch bisected. */
        outcome: z.string().max(2_000).nullable(),
      }),
    )
    .max(50),
  /** The last round the watch ran. */
  last: z.object({ head: sha, at: z.string(), alarm: z.boolean(), failed: z.boolean() }).nullable(),
  /**
   * The drift rounds measured against the present good commit, oldest first (the last 200): the series the
   * change-point method reads. Emptied when the good commit moves, since its scores are against another commit.
   */
  series: z
    .array(
      z.object({ head: sha, at: z.string(), scores: z.array(z.object({ name: z.string().nullable(), score: z.number().positive() })) }),
    )
    .max(200)
    .default([]),
});

export type WatchState = z.infer<typeof watchStateSchema>;

/** A state file's text read back; a problem names the file and what is wrong, so a hand-edited one can be fixed. */
export function parseWatchState(text: string, source: string): WatchState {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${source}: expected the watch's JSON state, ${(error as Error).message}`);
  }
  const parsed = watchStateSchema.safeParse(value);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new Error(
      `${source}: expected the watch's state (version 1), ` +
        `${first ? `${first.path.join(".") || "the file"}: ${first.message}` : "invalid"}; ` +
        "delete the file to start the watch again from watch.since",
    );
  }
  return parsed.data;
}

export function startWatchState(good: string, because: string, now: Date): WatchState {
  return { version: 1, good, goodSince: now.toISOString(), goodBecause: because, reported: [], last: null, series: [] };
}

export interface WatchRoundResult {
  /** The commits the round compared. */
  good: string;
  head: string;
  judgement: DriftJudgement;
  /** What the bisection concluded, when one ran. */
  outcome: string | null;
  /** A change the change-point method found in the series with this round: reported like a drift. */
  change?: { scenario: string | null; before: string; after: string; score: number; pValue: number } | null;
  now: Date;
}

/** The state after a drift round: the good commit moves to the head only when main got faster everywhere, or a drift was reported. */
export function advanceWatchState(state: WatchState, round: WatchRoundResult): WatchState {
  const { judgement, head, now } = round;
  const at = now.toISOString();
  const last = { head, at, alarm: judgement.alarm, failed: judgement.failed };
  if (judgement.failed) return { ...state, last };
  if (round.change) {
    const { change } = round;
    return {
      ...state,
      good: head,
      goodSince: at,
      goodBecause:
        `a change point in the series (${change.before.slice(0, 12)}..${change.after.slice(0, 12)}, p ${change.pValue.toFixed(3)}) ` +
        "was reported; later rounds are measured against the slower main",
      reported: [
        ...state.reported,
        {
          good: change.before,
          bad: change.after,
          at,
          scenarios: [{ name: change.scenario, score: change.score, low: change.score, high: change.score }],
          outcome: round.outcome,
        },
      ].slice(-50),
      last,
      series: [],
    };
  }
  if (judgement.alarm) {
    const scenarios = judgement.drifted.flatMap((entry) =>
      entry.estimate
        ? [
            {
              name: entry.name,
              score: entry.estimate.score,
              low: entry.estimate.interval?.low ?? entry.estimate.score,
              high: entry.estimate.interval?.high ?? entry.estimate.score,
            },
          ]
        : [],
    );
    return {
      ...state,
      good: head,
      goodSince: at,
      goodBecause: `a drift from ${round.good.slice(0, 12)} was reported; later rounds are measured against the slower main`,
      reported: [...state.reported, { good: round.good, bad: head, at, scenarios, outcome: round.outcome }].slice(-50),
      last,
      series: [],
    };
  }
  if (judgement.improved && head !== state.good) {
    return {
      ...state,
      good: head,
      goodSince: at,
      goodBecause: `faster than ${round.good.slice(0, 12)} in every scenario`,
      last,
      series: [],
    };
  }
  return { ...state, last, series: appendSeries(state, round) };
}

/** The series with this round added (when it is against the state's good commit and scored something). */
export function appendSeries(
  state: WatchState,
  round: Pick<WatchRoundResult, "good" | "head" | "judgement" | "now">,
): WatchState["series"] {
  if (round.good !== state.good || round.judgement.failed) return state.series;
  const scores = round.judgement.scenarios.flatMap((entry) => (entry.estimate ? [{ name: entry.name, score: entry.estimate.score }] : []));
  return [...state.series, { head: round.head, at: round.now.toISOString(), scores }].slice(-200);
}
