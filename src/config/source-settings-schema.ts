import { z } from "zod";
import { absolutePath, boolean, commandListSchema, nonEmptyString } from "./config-field-kinds.js";

/** A string that compiles as a regular expression. */
const regexString = (expected: string) =>
  z.string({ error: expected }).refine(
    (text) => {
      try {
        new RegExp(text);
        return true;
      } catch {
        return false;
      }
    },
    { error: expected },
  );

const globList = (expected: string) =>
  z.array(nonEmptyString("expected each glob to be a non-empty string, such as python/** or !**/tests/**"), { error: expected });

/** The OCI label image builders set to the commit they built (docker/metadata-action, `docker build --label`). */
export const DEFAULT_REVISION_LABEL = "org.opencontainers.image.revision";

const revisionExpectation =
  "expected where the image's commit is written: { label: org.opencontainers.image.revision }, { file: /path/in/image } (optionally " +
  "with pattern: a regular expression whose first group is the commit), or { commit: <sha> }";

/*
 * Where the commit of the image's source checkout comes from. A git HEAD file (`.git/HEAD`) is
 * followed to the ref it names; a pattern picks the commit out of any file (vLLM's _version.py has
 * `+g<short sha>`); an abbreviated commit is resolved in the repository.
 */
const revisionSchema = z.union(
  [
    z.strictObject({ label: nonEmptyString("expected an image label name such as org.opencontainers.image.revision") }),
    z.strictObject({
      file: absolutePath("expected an absolute path inside the image, such as /sgl-workspace/sglang/.git/HEAD"),
      pattern: regexString("expected a regular expression whose first group is the commit, such as \\+g([0-9a-f]{7,40})").optional(),
    }),
    z.strictObject({
      commit: z
        .string({ error: "expected a commit SHA (7 to 40 hexadecimal digits)" })
        .regex(/^[0-9a-fA-F]{7,40}$/, { error: "expected a commit SHA (7 to 40 hexadecimal digits)" }),
    }),
  ],
  { error: revisionExpectation },
);

/*
 * Scoring a pull request against its own base (speedgate run --base --head, the action's base-sha and
 * head-sha): how the engine image's source checkout (candidate.sourceDir) is brought to a commit, and
 * which changes need a build. See docs/scoring-pull-requests.md.
 */
export const sourceSchema = z.strictObject(
  {
    revision: revisionSchema.default({ label: DEFAULT_REVISION_LABEL }),
    // vLLM's images install a wheel: only vllm/** has a place to go in site-packages.
    paths: globList("expected a list of globs of the files the overlay brings to each commit, such as [vllm/**]").default([]),
    compiledPaths: globList(
      "expected a list of globs of compiled code, such as [sgl-kernel/**, csrc/**, CMakeLists.txt, setup.py]",
    ).default([]),
    build: commandListSchema.default([]),
    buildCache: absolutePath(
      "expected the absolute path inside the image where the runner's build cache volume is mounted, such as /root/.cache/ccache",
    ).optional(),
    buildCacheHit: regexString(
      'expected a regular expression matched against the build\'s output, such as "cache hit rate\\s+100"',
    ).optional(),
    cacheBaseline: boolean().default(true),
  },
  { error: "expected an object with revision, paths, compiledPaths, build, buildCache, buildCacheHit or cacheBaseline" },
);

export type SourceSettings = z.infer<typeof sourceSchema>;
export type RevisionSource = SourceSettings["revision"];
