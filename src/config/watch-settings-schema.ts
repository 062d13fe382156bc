import { z } from "zod";
import { boolean, integerIn, nonEmptyString } from "./config-field-kinds.js";

/*
 * Watching main (docs/watching-main.md): a drift round scores main's head against the last commit the
 * watch found good, and a drift beyond the bar is bisected. The round config's `watch:` is read by
 * `speedgate watch`, `speedgate bisect` and the action's `mode: watch`; the app's settings file takes
 * the same bars under its own `watch:` (src/github/repo-config-schema.ts), since the app judges a card
 * by its own settings, never by the round's.
 */

const DRIFT_EXPECTATION = "expected a speedup in (0, 1], such as 0.97 (a scenario 3% slower)";

/** A scenario whose interval lies wholly below this speedup against the good commit has drifted. */
export const maxDriftSchema = z
  .number({ error: DRIFT_EXPECTATION })
  .gt(0, { error: DRIFT_EXPECTATION })
  .lte(1, { error: DRIFT_EXPECTATION })
  .default(0.97);

/** How many more rounds a bisection step whose interval straddles its bar gets before it is reported as a range. */
export const maxRepeatsSchema = integerIn(0, 5, "expected a whole number of repeats from 0 to 5, such as 2").default(2);

const SHARE_EXPECTATION = "expected a share of the drift in (0, 1], such as 0.5 (most of it)";

/**
 * The share of the drift (on the log scale) the first bad commit must explain against its own parent to be
 * named as the regression; less, and the drift is reported as gradual over the range.
 */
export const explainShareSchema = z
  .number({ error: SHARE_EXPECTATION })
  .gt(0, { error: SHARE_EXPECTATION })
  .lte(1, { error: SHARE_EXPECTATION })
  .default(0.5);

const SINCE_EXPECTATION =
  "expected where the watch starts when it has found no good commit yet: { days: 7 } (main's first-parent commit that old), " +
  "{ tag: v0.5.0 } or { commit: <sha> }";

/** The drift round's base before the watch has found any commit good. */
export const watchSinceSchema = z.union(
  [
    z.strictObject({ days: integerIn(1, 3650, "expected a whole number of days from 1 to 3650, such as 7") }),
    z.strictObject({ tag: nonEmptyString("expected a tag name, such as v0.5.0") }),
    z.strictObject({
      commit: z
        .string({ error: "expected a commit SHA (7 to 40 hexadecimal digits)" })
        .regex(/^[0-9a-fA-F]{7,40}$/, { error: "expected a commit SHA (7 to 40 hexadecimal digits)" }),
    }),
  ],
  { error: SINCE_EXPECTATION },
);

export type WatchSince = z.infer<typeof watchSinceSchema>;

const CHANGE_POINT_EXPECTATION = "expected an object with some of enabled, maxPValue, minSegment, minChange and permutations";

/**
 * E-divisive means over main's series of drift rounds (src/scoring/detect-change-point.ts): a change
 * it finds with a permutation p-value at most maxPValue, both sides at least minSegment rounds long and
 * the later side at least minChange slower, starts a bisection of the two rounds around it.
 */
export const changePointSchema = z.strictObject(
  {
    enabled: boolean().default(true),
    maxPValue: z
      .number({ error: "expected a p-value in (0, 0.5], such as 0.01" })
      .gt(0, { error: "expected a p-value in (0, 0.5], such as 0.01" })
      .lte(0.5, { error: "expected a p-value in (0, 0.5], such as 0.01" })
      .default(0.01),
    minSegment: integerIn(2, 50, "expected a whole number of rounds from 2 to 50, such as 3").default(3),
    minChange: z
      .number({ error: "expected a relative change in [0, 0.5), such as 0.02 (2% slower)" })
      .min(0, { error: "expected a relative change in [0, 0.5), such as 0.02 (2% slower)" })
      .lt(0.5, { error: "expected a relative change in [0, 0.5), such as 0.02 (2% slower)" })
      .default(0.02),
    permutations: integerIn(19, 9999, "expected a whole number of permutations from 19 to 9999, such as 199").default(199),
  },
  { error: CHANGE_POINT_EXPECTATION },
);

export type ChangePointSettings = z.infer<typeof changePointSchema>;

/** The round config's `watch:` section: what `speedgate watch`, `speedgate bisect` and the action's mode: watch read. */
export const watchSchema = z.strictObject(
  {
    maxDrift: maxDriftSchema,
    since: watchSinceSchema.default({ days: 7 }),
    maxRepeats: maxRepeatsSchema,
    explainShare: explainShareSchema,
    // The change-point method over the drift rounds the state file keeps (speedgate watch without the app).
    changePoint: changePointSchema.prefault({}),
  },
  { error: "expected an object with some of maxDrift, since, maxRepeats, explainShare and changePoint" },
);

export type WatchSettings = z.infer<typeof watchSchema>;

export const DEFAULT_WATCH: WatchSettings = watchSchema.parse({});

/** The app's `watch:` in .github/speedgate-app.yml: the watch workflow it reads and dispatches, and how it judges main. */
export const appWatchSchema = z.strictObject(
  {
    workflow: z
      .string({ error: "expected the watch workflow's file name, such as speedgate-watch.yml" })
      .regex(/^[\w.-]+\.ya?ml$/, { error: "expected the watch workflow's file name, such as speedgate-watch.yml" })
      .default("speedgate-watch.yml"),
    maxDrift: maxDriftSchema,
    maxRepeats: maxRepeatsSchema,
    explainShare: explainShareSchema,
    // Steps dispatched at once: with several runners free, a step splits the range in parallelSteps + 1 parts.
    parallelSteps: integerIn(1, 8, "expected a whole number of steps dispatched at once from 1 to 8, such as 1").default(1),
    // Each merge to the default branch scored against its parent after it lands.
    everyMerge: boolean().default(false),
    changePoint: changePointSchema.prefault({}),
  },
  {
    error: "expected an object with some of workflow, maxDrift, maxRepeats, explainShare, parallelSteps, everyMerge and changePoint",
  },
);

export type AppWatchSettings = z.infer<typeof appWatchSchema>;
