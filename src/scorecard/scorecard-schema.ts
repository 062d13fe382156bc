import { z } from "zod";
import { cardCalibrationSchema } from "../calibration/calibration-schema.js";
import { FAILURE_KINDS } from "../vocabulary/engine-failure.js";
import { roundMetricsSchema } from "../metrics/metrics-schema.js";
import { engineReportedTimesSchema } from "../vocabulary/engine-reported-times.js";
import { gpuStateSchema } from "../vocabulary/gpu-state-schema.js";
import { GATE_MODES, MAX_GATE_REASONS } from "../scoring/evaluate-gate.js";
import { SCENARIO_ROLES } from "../scoring/scenario-role.js";
import { UNEXPLAINED_RULES } from "../scoring/judge-unexplained.js";
import { MAX_SCENARIOS, SCENARIO_NAME } from "../vocabulary/scenario-name.js";
import { count, finiteOrNull, fraction, ratioOrNull, text } from "./card-field-kinds.js";
import { answerVariationSchema, promptResultSchema } from "./prompt-result-schema.js";

// The prompt-level schemas moved to prompt-result-schema.ts; their importers keep reading them from here.
export {
  PROMPT_STATUSES,
  answerVariationSchema,
  promptResultSchema,
  promptRunSchema,
  statusEvidenceSchema,
  type AnswerVariation,
  type EngineSide,
  type PromptResult,
  type PromptRun,
} from "./prompt-result-schema.js";

/*
 * scorecard.json is the contract between the action, the app and the CLI. The app reads it from an
 * artifact a pull request's code could have written, so this schema is also the untrusted-input
 * check: bounded strings and lists, no open-ended objects.
 */

export const SCORECARD_SCHEMA_VERSION = 2;

/** The longest prompts file path a scenario's card keeps (settings.promptsSource). */
export const MAX_PROMPTS_SOURCE_CHARS = 256;
/** Files left out by patch-paths that a card lists by name; past this many it gives the count. */
export const MAX_LISTED_LEFT_OUT = 1_000;
/** Overlay paths a card lists by name; past this many it gives the count. */
export const MAX_LISTED_OVERLAY_PATHS = 50;
/** The regressed prompts a card lists (Scorecard.regression), slowest first. */
export const MAX_LISTED_REGRESSED = 20;

export const failureSchema = z.object({
  engine: z.enum(["baseline", "candidate"]),
  stage: z.enum(["patch", "build", "startup", "benchmark"]),
  kind: z.enum(FAILURE_KINDS),
  label: text(200),
  summary: text(2_000),
  hint: text(4_000),
  exitCode: z.number().int().nullable(),
  signal: text(32).nullable(),
  logTail: z.array(text(4_000)).max(2_000),
  run: z.number().int().min(1).nullable().optional(),
  /** A crash's first frames of the engine's own code, innermost first (assertion_failed, fatal_signal). */
  frames: z.array(text(1_000)).max(20).optional(),
  /** The prompt the engine was serving when it died mid-benchmark: its place in the benchmark (1-based) and its id. */
  prompt: z
    .object({ number: z.number().int().min(1), id: text(256) })
    .nullable()
    .optional(),
  /** In a round with scenarios: the scenario the engine was serving when it failed; absent or null otherwise. */
  scenario: text(64).nullable().optional(),
});

const sha = z.string().regex(/^[0-9a-f]{40}$/);

/** What one engine's source went through to reach its commit: the overlay, the baseline image cache, the build. */
export const cardCommitSideSchema = z.object({
  /** The commit this engine runs: the base, or the head (merged onto the base). */
  commit: sha,
  /** The image this engine ran (runtime: docker): the engine image with the overlay and build on top. */
  imageId: text(256).nullable(),
  /** Files the overlay changed in the image's checkout; null with a worktree (runtime: process) or a cached baseline. */
  overlayFiles: count.nullable(),
  /** The first of them, for the card. */
  overlayPaths: z.array(text(1_024)).max(MAX_LISTED_OVERLAY_PATHS),
  /** How long the overlay build took; null when none ran (a cache hit, nothing to change). */
  overlayMs: finiteOrNull,
  /**
   * The baseline image cached per base commit: hit, miss, or none (the image was at the base already); null for the candidate, runtime:
   * process and source.cacheBaseline: false.
   */
  cache: z.enum(["hit", "miss", "none"]).nullable(),
  /** Changed files outside source.paths, never applied. */
  leftOut: count,
  build: z.object({
    ran: z.boolean(),
    /** Why it ran or did not: "sgl-kernel/csrc/gemm.cu changed", "no compiled path changed". */
    reason: text(1_000),
    ms: finiteOrNull,
    /** Whether the runner's build cache volume held an earlier build (warm) or was empty (cold); null without source.buildCache. */
    cache: z.enum(["warm", "cold"]).nullable(),
    /** source.buildCacheHit matched the build's output; null when it is not configured or no build ran. */
    hit: z.boolean().nullable(),
  }),
});

/** Base/head mode: the commits the card scores and how each engine was made from the one image. */
export const cardCommitsSchema = z.object({
  base: sha,
  head: sha,
  /** Where the pull request's diff starts; the base itself when the head is up to date with it. */
  mergeBase: sha,
  /** The engine image both engines were made from (runtime: docker). */
  image: text(512).nullable(),
  /** The commit of the image's source checkout. */
  imageRevision: sha.nullable(),
  /** Where it was read: `label org.opencontainers.image.revision`, `file /sgl-workspace/sglang/.git/HEAD`, `config`. */
  imageRevisionFrom: text(600).nullable(),
  baseline: cardCommitSideSchema.nullable(),
  candidate: cardCommitSideSchema.nullable(),
});

/**
 * Where a card links its troubleshooting pages: speedgate's own docs/troubleshooting/ at the version
 * that made the card (a GitHub blob URL), so that a link works from a pull request comment.
 */
export const docsBaseUrlSchema = z
  .string()
  .max(512)
  .regex(/^https:\/\/[A-Za-z0-9.-]+(?::\d+)?\/[A-Za-z0-9._~%/+-]*\/docs\/troubleshooting\/$/, {
    error: "expected an https URL ending in /docs/troubleshooting/",
  });

/** Where one engine's share of a round's time went, summed over the round's runs (milliseconds). */
export const engineTimeSpentSchema = z.object({
  /** How many times the engine was started: once per run, whatever the number of scenarios. */
  starts: count,
  /** From each start until the engine answered its health check. */
  startMs: z.number().finite().min(0),
  /** Warm-up requests, not measured. */
  warmupMs: z.number().finite().min(0),
  /** The measured requests, every scenario's together. */
  benchmarkMs: z.number().finite().min(0),
  /** Stopping the engine and waiting for it to be gone. */
  stopMs: z.number().finite().min(0),
  /** Answering the quality question set (quality:), after the bench in the same starts; absent without one and on older cards. */
  qualityMs: z.number().finite().min(0).optional(),
});

/** Where the round's wall-clock time went: preparing (patch, build), and each engine's starts, warm-up and benchmark. */
export const timeSpentSchema = z.object({
  /** From the round's start to its last engine stopped. */
  totalMs: z.number().finite().min(0),
  /** Patching and building both engines before any started (prepare). */
  prepareMs: z.number().finite().min(0),
  baseline: engineTimeSpentSchema,
  candidate: engineTimeSpentSchema,
});

/** The ids of questions a card lists (the discordant ones); past this many it lists none and the per-run outcomes say. */
const MAX_QUESTIONS = 100_000;
const questionIds = z.array(text(256)).max(MAX_QUESTIONS);

/** The quality verdict as judgeQuality gives it: what every reader recomputes from `questions`, never reads back. */
export const qualityJudgementSchema = z.object({
  compared: count,
  baselineRight: count,
  candidateRight: count,
  baselineOnly: questionIds,
  candidateOnly: questionIds,
  pValue: fraction,
  difference: z.number().finite().min(-1).max(1),
  interval: z.object({ low: z.number().finite().min(-1).max(1), high: z.number().finite().min(-1).max(1) }),
  dropped: z.boolean(),
  line: text(1_000),
  reason: text(4_000).nullable(),
});

/**
 * The round's question set (quality:) as both engines answered it: per question, right or wrong in each
 * run (null: not asked in that run), so anyone can judge it again; never the question's text or its
 * reference, which stay on the runner. Absent on cards of rounds without quality: and on older cards.
 */
export const cardQualitySchema = z.object({
  /** sha256 of the whole question set as loaded (shards of one round share it). */
  questionsHash: text(128),
  scorer: z.union([z.enum(["number", "choice", "exact"]), z.object({ regex: text(1_000) })]),
  maxTokens: count,
  questions: z
    .array(
      z.object({
        id: text(256),
        baseline: z.array(z.boolean().nullable()).max(100),
        candidate: z.array(z.boolean().nullable()).max(100),
      }),
    )
    .max(MAX_QUESTIONS),
  judgement: qualityJudgementSchema.nullable(),
});

export { MAX_SCENARIOS, SCENARIO_NAME };

const lookRunsSchema = z.number().int().min(1).max(100);

/**
 * A run budget's sequential test (decideSequential) as the card records it: per look, what the rule
 * saw and decided, and why the round stopped. Every reader recomputes it from the prompts' runs (a
 * merge, the app's re-gate); this copy is what the runner concluded. Absent on a card of a fixed
 * number of runs.
 */
export const sequentialSchema = z.object({
  budget: z.object({ min: lookRunsSchema, max: lookRunsSchema }),
  /** The one-sided error the looks spend together. */
  alpha: z.number().gt(0).lt(0.5),
  /** Where the run-to-run spread came from: the engines' starts, the run scores alone, or a calibration. */
  spread: z.enum(["starts", "pairs", "calibrated"]),
  /** Runs every compared prompt has. */
  runs: z.number().int().min(0).max(100),
  looks: z
    .array(
      z.object({
        runs: lookRunsSchema,
        score: z.number().finite().min(0),
        low: z.number().finite().min(0),
        high: z.number().finite().min(0),
        statistic: z.number().finite(),
        bound: z.number().finite(),
        upper: z.number().finite().min(0),
        outcome: z.enum(["pass", "fail", "continue"]),
      }),
    )
    .max(100),
  decision: z.enum(["pass", "fail", "undecided"]),
  decidedAfter: lookRunsSchema.nullable(),
  /** One run score's standard deviation on the log scale, as this round (or its calibration) saw it. */
  runSpread: z.number().finite().min(0).nullable(),
  /** The smallest speedup this runner passes with 95% power within the budget. */
  detectable: z.number().finite().min(0).nullable(),
  /** Why the round stopped after its last look; null when it stopped for none of these (a merge, a re-gate under another bar). */
  stop: z.enum(["failure", "integrity", "decided", "ruled-out", "budget"]).nullable(),
});

export type CardSequential = z.infer<typeof sequentialSchema>;

const scorecardFields = {
  schemaVersion: z.literal(SCORECARD_SCHEMA_VERSION),
  speedgateVersion: text(64),
  createdAt: text(64),
  engine: text(128),
  roundScore: finiteOrNull,
  scoreInterval: z.object({ low: z.number().finite(), high: z.number().finite(), confidence: z.number().gt(0).lt(1) }).nullable(),
  runs: z.object({
    completed: z.number().int().min(0).max(100),
    scores: z.array(ratioOrNull).max(100),
  }),
  promptsScored: count,
  promptsTotal: count,
  belowTolerance: count,
  /** Prompts whose candidate gave another answer than the baseline within settings.agreementTokens. */
  diverged: count,
  /** Prompts whose candidate claimed more tokens than its stream could hold. */
  implausible: count,
  zeroedTotal: count,
  /** Compared prompts that scored nothing, whatever the reason; the gate allows at most gate.maxUnscored of them. */
  unscored: count,
  excluded: count,
  /** Median over compared prompts of their agreement. */
  medianAgreement: fraction.nullable().optional(),
  /**
   * Compared prompts cut short or parted where the baseline's own answers do not; gate.maxUnexplained limits them. Absent on older cards.
   */
  unexplained: count.optional(),
  /**
   * Candidate answers (prompt-runs) no baseline answer explains, of those compared, and the shuffle test's p-value; absent on older cards.
   */
  unexplainedAnswers: z
    .object({
      count,
      compared: count,
      pValue: fraction,
      baselineVaries: z.boolean(),
      /**
       * The baseline held to itself: its answers none of its other runs' answers to the prompt explains, of those held; absent on
       * older cards.
       */
      baselineNovel: count.optional(),
      baselineCompared: count.optional(),
    })
    .nullable()
    .optional(),
  /**
   * What the minority-regression rule read: the scored prompts under gate.regressionFloor, slowest first (the first
   * MAX_LISTED_REGRESSED of them; regressedTotal counts all), and the E2E p90 and output throughput at equal length, candidate over
   * baseline. Recomputed by every reader; absent on older cards.
   */
  regression: z
    .object({
      regressedTotal: count,
      regressed: z.array(z.object({ id: text(256), score: z.number().finite().min(0) })).max(MAX_LISTED_REGRESSED),
      e2eP90: ratioOrNull,
      throughput: ratioOrNull,
    })
    .nullable()
    .optional(),
  tokenCountsEstimated: z.boolean(),
  settings: z.object({
    requestIntervalMs: z.number().min(0),
    arrival: z.enum(["fixed", "poisson"]),
    /**
     * bench.concurrency: a closed loop of this many requests in flight (requestIntervalMs and arrival then unused); null or absent: the
     * open loop.
     */
    concurrency: z.number().int().min(1).max(100_000).nullable().optional(),
    /** bench.prompts.synthetic: prompts made to exact token lengths, sent with ignore_eos; null or absent: a prompt file. */
    synthetic: z
      .object({ inputTokens: count, outputTokens: count, count, seed: z.number().int().min(0) })
      .nullable()
      .optional(),
    /**
     * A scenario's prompts file as its round config writes it (relative to the config), its end kept
     * when longer than the bound; absent for synthetic prompts, on a round without scenarios and on older cards.
     */
    promptsSource: text(MAX_PROMPTS_SOURCE_CHARS).min(1).optional(),
    thinking: z.boolean(),
    contextLimit: count,
    maxTokens: count,
    tolerance: z.number().gt(0).lte(1),
    model: text(256),
    /** The answers must agree on this many first tokens; 0: not checked. */
    agreementTokens: count.optional(),
    /** An answer that parts must agree on more than this share of k; absent on older cards (read as the default, 0.5). */
    minPromptAgreement: z.number().min(0).lt(1).optional(),
    /** sha256 of the tokenizer.json speedgate counted with; null: the engines' own counts, bounded by the bytes they streamed. */
    tokenizer: text(128).nullable().optional(),
    /** The runs of each engine the round could take: the number, or a budget's max. */
    runs: z.number().int().min(1).max(100),
    /** bench.runs as a budget: at least min and at most max runs of each engine, the sequential rule deciding; absent for a number. */
    budget: z.object({ min: lookRunsSchema, max: lookRunsSchema }).optional(),
    /** Which engine went first in each run (orderEngineTurns) and whether the client was warmed first; absent on cards from before them. */
    order: z.enum(["counterbalanced", "baseline-first"]).optional(),
    clientWarmup: z.boolean().optional(),
    /**
     * What in the pull request changes the engine's parallel slots (findSlotChange), such as "`-np` changed in serve.sh";
     * absent when nothing does. A queue-bound card then says the queue's draining is the change's effect.
     */
    slotsChanged: text(500).optional(),
    /** The baseline's parallel slots as its command sets them (findEngineSlots); absent when it does not say. */
    engineSlots: z.object({ slots: z.number().int().positive(), setting: text(200) }).optional(),
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
    use: z.enum(GATE_MODES),
    maxUnscored: z.number().min(0).lt(1),
    minPrompts: z.number().int().min(1).max(10_000_000),
    /** Absent on older cards: a merge of them gets the defaults. */
    minAgreement: z.number().min(0).max(1).optional(),
    maxUnexplained: z.number().min(0).lt(1).optional(),
    /** The minority-regression rule's limits; absent on older cards, which get the defaults. */
    regressionFloor: z.number().gt(0).lte(1).optional(),
    maxRegressedPrompts: z.number().min(0).lt(1).optional(),
    /** gate.answers and gate.quality as the round set them; absent: speed, and the default maxDrop. */
    answers: z.enum(["speed", "quality"]).optional(),
    quality: z.object({ maxDrop: z.number().min(0).lt(1) }).optional(),
    /** A scenario's gate.role and a guard's gate.margin; absent: a target (every card before roles). */
    role: z.enum(SCENARIO_ROLES).optional(),
    margin: z.number().gt(0).lt(1).optional(),
    bar: z.number().gt(0),
    passed: z.boolean(),
    reason: text(8_000),
    reasons: z.array(text(4_000)).max(MAX_GATE_REASONS),
    rule: text(4_000).nullable(),
    /** Which measure decided the unexplained rule and what it found, pass or fail; absent on older cards and where it was not asked. */
    unexplainedDecision: z
      .object({ rule: z.enum(UNEXPLAINED_RULES), statement: text(4_000) })
      .nullable()
      .optional(),
    calibration: cardCalibrationSchema.nullable(),
    /**
     * gate.maxRegression: with scenarios, no scenario's interval may lie wholly below this speedup
     * (its high end, or its score without an interval, must reach it). Absent: no such limit.
     */
    maxRegression: z.number().gt(0).lte(1).nullable().optional(),
  }),
  failure: failureSchema.nullable(),
  /** Where the round came from; filled by the action, informative only (the app never trusts it). */
  source: z
    .object({
      repository: text(256).nullable(),
      pullRequest: z.number().int().min(1).nullable(),
      headSha: text(64).nullable(),
      runId: text(64).nullable(),
      runUrl: text(1_024).nullable(),
      /**
       * Set when the workflow's patch-paths limited the pull request's diff: its globs and the changed
       * files they left out, which were never built or measured. Optional, so older cards still read.
       */
      patchFilter: z
        .object({ globs: z.array(text(512)).max(200), leftOut: z.array(text(1_024)).max(MAX_LISTED_LEFT_OUT), leftOutTotal: count })
        .nullable()
        .optional(),
    })
    .nullable(),
  /**
   * Base/head mode (a pull request scored against its own base); absent or null in the fixed-baseline mode. Optional, so older cards still
   * read.
   */
  commits: cardCommitsSchema.nullable().optional(),
  /** Why the candidate was the baseline engine itself (no patch, same image and command); absent or null when something differed. */
  unchanged: text(1_024).nullable().optional(),
  /** Set on a shard's card; a merged card has null. */
  shard: z.object({ index: z.number().int().min(1), count: z.number().int().min(1) }).nullable(),
  /** 1 when this card was converted from a version-1 card, which kept no times at k: its prompt scores are that card's. */
  convertedFrom: z.literal(1).nullable(),
  prompts: z.array(promptResultSchema).max(100_000),
  /** TTFT, TPOT, ITL and throughput of both engines at equal length; null when nothing was scored. */
  metrics: roundMetricsSchema.nullable(),
  /** The engines' own prompt and decode times (queueing excluded), where they report them; absent on older cards. */
  engineTimes: engineReportedTimesSchema.nullable().optional(),
  /** With bench.runs ≥ 2: how often the baseline answered a prompt differently in different runs; absent on older cards. */
  answerVariation: answerVariationSchema.nullable().optional(),
  /** nvidia-smi's view before each engine started. */
  gpuState: gpuStateSchema.nullable(),
  docsBaseUrl: docsBaseUrlSchema.nullable(),
  /** Where the round's time went; absent on older cards and on merged shards (each shard spent its own). */
  timeSpent: timeSpentSchema.nullable().optional(),
  /** A run budget's sequential test; absent on a card of a fixed number of runs. */
  sequential: sequentialSchema.optional(),
  /** The quality question set both engines answered, and its verdict; absent without quality:. */
  quality: cardQualitySchema.optional(),
};

/**
 * One scenario of a round (config `scenarios`): a card of its own, with the scenario's settings,
 * prompts, summary and gate, sharing the round's engine, provenance, failure and GPU state. Each is
 * re-derivable on its own by rescoreCard, as a card of a round without scenarios is.
 */
export const scenarioCardSchema = z.object(scorecardFields);

/** Which settings decided a scenario's bar: the round config's (`gate`, `scenarios[].gate`), or the app's own settings. */
export const BAR_SOURCES = ["round-config", "app-settings"] as const;

/** A scenario's bar in few words: its role, and a target's bar or a guard's margin. */
export const claimedBarSchema = z.object({
  role: z.enum(SCENARIO_ROLES),
  minRoundScore: z.number().gt(0),
  margin: z.number().gt(0).lt(1).optional(),
});

export const scenarioResultSchema = z.object({
  name: z.string().regex(SCENARIO_NAME),
  card: scenarioCardSchema,
  /**
   * Set by the app's re-gate: which settings decided the bar, the file they came from, and the bar the card
   * claimed when it was another (the card the round wrote, whose own round config a pull request may have
   * edited). Absent: the round's own card, whose bars are its round config's.
   */
  barFrom: z.object({ settings: z.enum(BAR_SOURCES), path: text(256).nullable(), claimed: claimedBarSchema.optional() }).optional(),
});

/**
 * A round's card. With scenarios, its top-level figures (roundScore, prompts, settings, metrics) are
 * the first scenario's, the headline scenario, so every reader that knows no scenarios still shows a
 * real measurement; its gate is the whole round's (combineScenarioGates), and `scenarios` holds every
 * scenario, the first included. A reader never trusts the top level of such a card: it rederives it
 * from `scenarios` (rescoreScenarioCard).
 */
export const scorecardSchema = z.object({
  ...scorecardFields,
  scenarios: z
    .array(scenarioResultSchema)
    .min(1)
    .max(MAX_SCENARIOS)
    .refine((scenarios) => new Set(scenarios.map((scenario) => scenario.name)).size === scenarios.length, {
      error: "expected scenarios with distinct names",
    })
    .nullable()
    .optional(),
});

export type Scorecard = z.infer<typeof scorecardSchema>;
export type ScenarioCard = z.infer<typeof scenarioCardSchema>;
export type ScenarioResult = z.infer<typeof scenarioResultSchema>;
export type BarSource = (typeof BAR_SOURCES)[number];
export type ClaimedBar = z.infer<typeof claimedBarSchema>;
export type TimeSpent = z.infer<typeof timeSpentSchema>;
export type EngineTimeSpent = z.infer<typeof engineTimeSpentSchema>;
export type CardCommits = z.infer<typeof cardCommitsSchema>;
export type CardCommitSide = z.infer<typeof cardCommitSideSchema>;
export type CardQuality = z.infer<typeof cardQualitySchema>;
