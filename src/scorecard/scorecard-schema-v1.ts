import { z } from "zod";
import { FAILURE_KINDS } from "../vocabulary/engine-failure.js";
import { MAX_LISTED_LEFT_OUT } from "./scorecard-schema.js";

/*
 * The version-1 card, as speedgate 0.1 wrote it. Read only, to convert it to the current version
 * (convert-scorecard-v1.ts): artifacts and shard cards written before the upgrade stay readable.
 * Bounded like the current schema, since it is untrusted input too.
 */

const text = (max: number) => z.string().max(max);
const count = z.number().int().min(0).max(10_000_000);
const finiteOrNull = z.number().finite().nullable();
// A speedup is a ratio of durations: a negative one can only come from a forged or broken card.
const ratioOrNull = z.number().finite().min(0).nullable();

const fraction = z.number().finite().min(0).max(1);

// The integrity fields (claimedTokens, agreement, diverged, implausible, agreementTokens, tokenizer) and
// patchFilter came late in version 1 as optional fields: cards from then carry them and still read.
const engineSideSchemaV1 = z.object({
  outputTokens: count.nullable(),
  claimedTokens: count.nullable().optional(),
  ttftMs: finiteOrNull,
  e2eMs: finiteOrNull,
  finishReason: text(64).nullable(),
  error: text(2_000).nullable(),
});

const promptResultSchemaV1 = z.object({
  id: text(256),
  status: z.enum(["scored", "below_tolerance", "zeroed", "excluded", "diverged", "implausible"]),
  score: ratioOrNull,
  speedup: ratioOrNull,
  comparedTokens: count.nullable(),
  reason: text(2_000).nullable(),
  agreement: fraction.nullable().optional(),
  agreedTokens: count.nullable().optional(),
  baseline: engineSideSchemaV1.nullable(),
  candidate: engineSideSchemaV1.nullable(),
});

const failureSchemaV1 = z.object({
  engine: z.enum(["baseline", "candidate"]),
  stage: z.enum(["patch", "build", "startup", "benchmark"]),
  kind: z.enum(FAILURE_KINDS),
  label: text(200),
  summary: text(2_000),
  hint: text(4_000),
  exitCode: z.number().int().nullable(),
  signal: text(32).nullable(),
  logTail: z.array(text(4_000)).max(2_000),
});

export const scorecardSchemaV1 = z.object({
  schemaVersion: z.literal(1),
  speedgateVersion: text(64),
  createdAt: text(64),
  engine: text(128),
  roundScore: finiteOrNull,
  scoreInterval: z.object({ low: z.number().finite(), high: z.number().finite(), confidence: z.number().gt(0).lt(1) }).nullable(),
  promptsScored: count,
  promptsTotal: count,
  belowTolerance: count,
  zeroedTotal: count,
  excluded: count,
  diverged: count.optional(),
  implausible: count.optional(),
  medianAgreement: fraction.nullable().optional(),
  tokenCountsEstimated: z.boolean(),
  settings: z.object({
    requestIntervalMs: z.number().min(0),
    arrival: z.enum(["fixed", "poisson"]),
    thinking: z.boolean(),
    contextLimit: count,
    maxTokens: count,
    tolerance: z.number().gt(0).lte(1),
    model: text(256),
    agreementTokens: count.optional(),
    tokenizer: text(128).nullable().optional(),
  }),
  provenance: z.object({
    imageDigest: text(256).nullable(),
    baselineImage: text(512).nullable(),
    baselineImageId: text(256).nullable(),
    patchHash: text(128).nullable(),
    configHash: text(128).nullable(),
    promptsHash: text(128).nullable(),
    runner: text(256).nullable(),
    gpu: text(512).nullable(),
  }),
  gate: z.object({
    minRoundScore: z.number().gt(0),
    use: z.enum(["round-score", "interval-low"]),
    passed: z.boolean(),
    reason: text(4_000),
  }),
  failure: failureSchemaV1.nullable(),
  /** Where the round came from; filled by the action, informative only (the app never trusts it). */
  source: z
    .object({
      repository: text(256).nullable(),
      pullRequest: z.number().int().min(1).nullable(),
      headSha: text(64).nullable(),
      runId: text(64).nullable(),
      runUrl: text(1_024).nullable(),
      patchFilter: z
        .object({ globs: z.array(text(512)).max(200), leftOut: z.array(text(1_024)).max(MAX_LISTED_LEFT_OUT), leftOutTotal: count })
        .nullable()
        .optional(),
    })
    .nullable(),
  /** Set on a shard's card; a merged card has null. */
  shard: z.object({ index: z.number().int().min(1), count: z.number().int().min(1) }).nullable(),
  prompts: z.array(promptResultSchemaV1).max(100_000),
});

export type ScorecardV1 = z.infer<typeof scorecardSchemaV1>;
