import type { EngineFailure } from "../vocabulary/engine-failure.js";

export const IMAGE_BASE_MISMATCH_LABEL = "the engine image cannot be brought to the base commit (the image, not the engine or the patch)";

export const IMAGE_BASE_MISMATCH_HINT =
  "The baseline is the image's source checkout brought to the pull request's base, so the image must be built from a commit at or " +
  "before the base on the same history: use an image of the base branch (a nightly or per-commit image of main), check " +
  "source.revision (where the image's commit is read), and make sure the runner's clone has the image's commit (actions/checkout " +
  "with fetch-depth: 0). Nothing of the pull request was run.";

/** The facts the card names: which image, which commits. */
export interface MismatchFacts {
  image: string;
  imageRevision: string | null;
  base: string;
  /** Why, in one sentence: "… is not an ancestor of the base", "the diff … does not apply". */
  reason: string;
  logTail?: string[];
}

/**
 * The round cannot make its baseline: the image's source is not on the base's history, or the change
 * from it to the base does not apply. Blamed on neither engine nor the pull request, found before any
 * engine starts.
 */
export function imageBaseMismatch(facts: MismatchFacts): EngineFailure {
  const revision = facts.imageRevision ? facts.imageRevision.slice(0, 12) : "an unknown commit";
  return {
    engine: "baseline",
    stage: "patch",
    kind: "image_base_mismatch",
    label: IMAGE_BASE_MISMATCH_LABEL,
    summary: `${facts.image} (source at ${revision}) cannot be brought to the base ${facts.base.slice(0, 12)}: ${facts.reason}`.slice(
      0,
      2_000,
    ),
    hint: IMAGE_BASE_MISMATCH_HINT,
    exitCode: null,
    signal: null,
    logTail: facts.logTail ?? [],
  };
}
