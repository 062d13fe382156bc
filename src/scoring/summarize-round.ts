import { type RunPromptScores, type ScoreInterval, bootstrapRunsAndPrompts } from "./bootstrap-interval.js";
import { type AggregatedPrompt, type RunOutcome, aggregatePromptRuns } from "./aggregate-prompt-runs.js";
import {
  type GateResult,
  type GateSettings,
  MIN_PROMPTS_FOR_INTERVAL,
  type NoiseInput,
  evaluateGate,
  gateBar,
  regressionReasons,
} from "./evaluate-gate.js";
import { countBaselineNovelty } from "./count-baseline-novelty.js";
import { effectiveRegressionFloor, findRegressedPrompts } from "./judge-regression.js";
import { DEFAULT_GUARD_MARGIN } from "./scenario-role.js";
import { type LatencyRatios, measureLatencyRatios } from "./measure-latency-ratios.js";
import type { UnexplainedAnswers } from "./judge-unexplained.js";
import { compareIds } from "./compare-ids.js";
import { DEFAULT_MAX_QUALITY_DROP, type QualityJudgement, type QuestionOutcome, judgeQuality } from "./judge-quality.js";
import { type PromptExplanation, type UnexplainedKind, explainPromptAnswers } from "./explain-prompt-answers.js";
import type { BaselineSelf, ExplainRules } from "./explain-unscored-run.js";
import { DEFAULT_AGREEMENT_TOKENS, DEFAULT_MIN_PROMPT_AGREEMENT } from "./judge-agreement.js";
import { median } from "./median.js";
import { type AnswerPrefixes, distinctAnswers } from "./pooled-answers.js";
import { shuffleUnexplained } from "./shuffle-unexplained.js";
import { type PromptStatus, UNSCORED_STATUSES } from "./score-prompt.js";
import { type CalibratedSpread, type SequentialResult, decideSequential } from "./decide-sequential.js";
import { type LookStop, judgeLook } from "./judge-look.js";
import type { RunBudget, SequentialOrder } from "./sequential-design.js";

/** The little of a prompt's result that the round summary depends on: its outcome in each run, in run order. */
export interface PromptOutcome {
  /** For the gate's reasons. */
  id?: string;
  runs: readonly RunOutcome[];
  /** The baseline's least agreeing pair of its own answers over the runs (measureBaselineSelf); null or absent when not known. */
  baselineSelf?: BaselineSelf | null;
  /**
   * The pooled answers' prefix relation (matchBranches): when present, the candidate's answers were held
   * to every answer the baseline gave, and the gate's unexplained rule is the shuffle test over it.
   * Absent on cards from before, whose rules (explainPromptAnswers) still apply to them.
   */
  answerPrefixes?: AnswerPrefixes | null;
}

export interface RoundRuns {
  /** Runs that were started (a failure ends the round early). */
  completed: number;
  /** Each run's own round score (the median over prompts of that run alone), null for a run the candidate never served. */
  scores: Array<number | null>;
}

export interface RoundSummary {
  roundScore: number | null;
  /** Null without a score or with fewer than MIN_PROMPTS_FOR_INTERVAL prompts. */
  interval: ScoreInterval | null;
  runs: RoundRuns;
  promptsScored: number;
  promptsTotal: number;
  belowTolerance: number;
  diverged: number;
  implausible: number;
  zeroedTotal: number;
  /** Below tolerance, diverged, implausible and zeroed together: the prompts that score 0. */
  unscored: number;
  excluded: number;
  /** Median over compared prompts of their (least) agreement; null when no answers were compared by text. */
  medianAgreement: number | null;
  /** Compared prompts with a cut or parting the baseline's own answers do not explain. */
  unexplained: number;
  /**
   * Candidate answers (prompt-runs) no baseline answer explains, of those compared, and the shuffle test's p-value; null without compared
   * answers.
   */
  unexplainedAnswers: UnexplainedAnswers | null;
  /**
   * What the minority-regression rule read: the scored prompts under gate.regressionFloor (slowest first) and the round's E2E p90 and
   * throughput, candidate over baseline; null without a score.
   */
  regression: RoundRegression | null;
  /** Each prompt over its runs, in input order. */
  prompts: AggregatedPrompt[];
  /** The question set judged (judgeQuality); null when the round has no quality:. */
  quality: QualityJudgement | null;
  gate: GateResult;
  /** The sequential test of a round with a run budget, and why the round stops after its latest look (null: it goes on). */
  sequential: (SequentialResult & { stop: LookStop | null }) | null;
}

/** A round with a run budget: the sequential rule's settings, and a fitting calibration's spread when it names one. */
export interface SequentialSettings {
  budget: RunBudget;
  order: SequentialOrder;
  calibrated?: CalibratedSpread | null;
}

export interface RoundRegression extends LatencyRatios {
  regressed: Array<{ id: string; score: number }>;
}

export interface SummarizeOptions {
  gate: GateSettings;
  /** Description of a baseline failure: the gate cannot pass without a sound reference. */
  baselineFailure: string | null;
  /** Description of an infrastructure failure on either side: nothing may pass on a broken measurement. */
  infrastructureFailure?: string | null;
  /** Description of a candidate failure in any run: nothing may pass either. */
  candidateFailure?: string | null;
  /** Why there may be no score (the failure that stopped the round), for the gate's reason. */
  failure: string | null;
  /** The round's calibrated noise floor, when it names a calibration. */
  noise?: NoiseInput | null;
  bootstrapSeed?: number;
  /**
   * The round's tolerance and agreement rules, for telling which cuts and partings the baseline explains; default: tolerance 0.9, the
   * rules' defaults.
   */
  rules?: Partial<ExplainRules>;
  /** The run budget the round is decided on (gate.use sequential); absent or null for a fixed number of runs. */
  sequential?: SequentialSettings | null;
  /** Each question of the round's quality set, right or wrong per run for each engine; null or absent without quality:. */
  quality?: readonly QuestionOutcome[] | null;
}

const STATUS_WORDS: ReadonlyArray<[PromptStatus, string]> = [
  ["below_tolerance", "below tolerance"],
  ["diverged", "diverged"],
  ["implausible", "implausible"],
  ["zeroed", "zeroed"],
];

/** Why the round has no score, in words that do not blame the wrong engine. */
function describeNoScore(prompts: readonly AggregatedPrompt[], failure: string | null): string {
  if (failure) return failure;
  if (prompts.length === 0) return "the round has no prompts";
  if (prompts.every((prompt) => prompt.status === "excluded"))
    return "the baseline answered none of the prompts, so there is nothing to compare with";
  return "the candidate was not sent any prompt";
}

const STATUS_LABEL: Partial<Record<UnexplainedKind, string>> = {
  below_tolerance: "below tolerance",
  diverged: "diverged",
  parted: "parted or stopped, timed to there",
};

const MAX_NAMED_UNEXPLAINED = 5;

/**
 * The compared prompts with an answer the baseline's own answers do not explain, and a short list of
 * them ("p3 run 1") by kind for the gate's reason.
 */
function findUnexplained(
  prompts: ReadonlyArray<{ prompt: PromptOutcome; explanation: PromptExplanation }>,
  served: readonly number[],
): { count: number; breakdown: string } {
  const found: Array<{ id: string; kind: UnexplainedKind; where: string }> = [];
  for (const [position, { prompt, explanation }] of prompts.entries()) {
    for (const run of served) {
      const outcome = prompt.runs[run];
      const kind = outcome === undefined ? null : explanation.unexplained(run, outcome);
      if (kind === null) continue;
      // Without an id, a prompt is named by its place among the compared prompts.
      const id = prompt.id ?? `prompt ${position + 1}`;
      found.push({ id, kind, where: prompt.runs.length > 1 ? `${id} run ${run + 1}` : id });
      break;
    }
  }
  // By id, so that a merge of shards (which lists prompts by id) names the same ones as the unsharded round.
  const named = found.sort((a, b) => compareIds(a.id, b.id)).slice(0, MAX_NAMED_UNEXPLAINED);
  const groups = Object.entries(STATUS_LABEL).flatMap(([kind, label]) => {
    const ids = named.filter((entry) => entry.kind === kind).map((entry) => entry.where);
    return ids.length > 0 ? [`${label}: ${ids.join(", ")}`] : [];
  });
  const more = found.length > named.length ? `; ${found.length - named.length} more` : "";
  return { count: found.length, breakdown: `${groups.join("; ")}${more}` };
}

/**
 * The shuffle test (shuffleUnexplained) over the prompts that keep the pooled relation. A run the
 * candidate never served has no candidate answer in it; the baseline's answers of every run count.
 */
function shuffleAnswers(explanations: readonly PromptExplanation[]): UnexplainedAnswers | null {
  const pooled = explanations.flatMap(({ prefixes }) => (prefixes ? [{ prefixes }] : []));
  if (pooled.length === 0) return null;
  const result = shuffleUnexplained(pooled);
  const baselineVaries = pooled.some(({ prefixes }) => distinctAnswers(prefixes, "baseline") >= 2);
  const novelty = countBaselineNovelty(pooled);
  if (result.compared === 0) return null;
  return {
    count: result.observed,
    compared: result.compared,
    pValue: result.pValue,
    baselineVaries,
    baselineNovel: novelty.novel,
    baselineCompared: novelty.compared,
  };
}

/**
 * Round score, interval, run spread, counts and gate from per-prompt, per-run outcomes. A fresh
 * round, a merge of shard cards and the app's re-gate all go through here, so a merged card equals
 * the unsharded one and the app's verdict equals the runner's.
 */
export function summarizeRound(prompts: readonly PromptOutcome[], options: SummarizeOptions): RoundSummary {
  const runCount = prompts.reduce((most, prompt) => Math.max(most, prompt.runs.length), 0);
  // A run in which the candidate was never sent anything (it died before serving) left no
  // measurement: it counts nowhere, and the card says why instead of showing 0.00×. Once it served
  // one prompt of a run, the prompts it did not answer in that run count as zeros.
  const servedRuns: number[] = [];
  for (let run = 0; run < runCount; run++) {
    if (prompts.some((prompt) => prompt.runs[run]?.candidateAttempted === true)) servedRuns.push(run);
  }
  const aggregated = prompts.map((prompt) => {
    const served = servedRuns.map((run) => prompt.runs[run]).filter((outcome): outcome is RunOutcome => outcome !== undefined);
    if (served.length > 0) return aggregatePromptRuns(served);
    if (prompt.runs.length === 0) {
      // The round ended before any engine ran (a patch that does not apply, a failed build): the failure is every prompt's reason.
      const reason = options.failure ?? "no engine was run";
      return options.baselineFailure
        ? { status: "excluded" as const, score: null, speedup: null, reason }
        : { status: "zeroed" as const, score: 0, speedup: null, reason };
    }
    // Unmeasured: the first run's status and reason still say what happened to the prompt.
    const shown = aggregatePromptRuns(prompt.runs);
    return { ...shown, score: shown.status === "excluded" ? null : 0 };
  });
  const counted = aggregated.filter((prompt) => prompt.status !== "excluded");
  const scores = servedRuns.length > 0 ? counted.map((prompt) => prompt.score ?? 0) : [];
  const roundScore = median(scores);

  const matrix: RunPromptScores = {
    runs: servedRuns.length,
    prompts: prompts.length,
    values: new Float64Array(servedRuns.length * prompts.length),
  };
  servedRuns.forEach((run, row) => {
    prompts.forEach((prompt, column) => {
      const outcome = prompt.runs[run];
      matrix.values[row * prompts.length + column] =
        !outcome || outcome.status === "excluded" ? Number.NaN : UNSCORED_STATUSES.has(outcome.status) ? 0 : (outcome.score ?? 0);
    });
  });
  const bootstrapInterval = (): ScoreInterval | null =>
    roundScore !== null && counted.length >= MIN_PROMPTS_FOR_INTERVAL && servedRuns.length > 0
      ? bootstrapRunsAndPrompts(matrix, { seed: options.bootstrapSeed })
      : null;

  const runScores: Array<number | null> = [];
  for (let run = 0; run < runCount; run++) {
    if (!servedRuns.includes(run)) {
      runScores.push(null);
      continue;
    }
    const values = prompts
      .map((prompt) => prompt.runs[run])
      .filter((outcome): outcome is RunOutcome => outcome !== undefined && outcome.status !== "excluded")
      .map((outcome) => (outcome.status === "scored" ? (outcome.score ?? 0) : 0));
    runScores.push(median(values));
  }

  const rules: ExplainRules = {
    tolerance: options.rules?.tolerance ?? 0.9,
    agreementTokens: options.rules?.agreementTokens ?? DEFAULT_AGREEMENT_TOKENS,
    minPromptAgreement: options.rules?.minPromptAgreement ?? DEFAULT_MIN_PROMPT_AGREEMENT,
  };
  // Prompts whose baseline failed in every run are excluded: they count for neither rule.
  const compared = prompts.flatMap((prompt, index) =>
    aggregated[index]?.status === "excluded" ? [] : [{ prompt, index, explanation: explainPromptAnswers(prompt, rules) }],
  );
  const unexplained = findUnexplained(compared, servedRuns);
  const medianAgreement = median(
    aggregated
      .filter((prompt) => prompt.status !== "excluded")
      .flatMap((prompt) => (typeof prompt.agreement === "number" ? [prompt.agreement] : [])),
  );
  const medianAgreementExplained = median(
    compared.flatMap(({ index, explanation }) => {
      const agreement = aggregated[index]?.agreement;
      return typeof agreement === "number" ? [explanation.agreementForGate(agreement)] : [];
    }),
  );
  const unexplainedAnswers = shuffleAnswers(compared.map(({ explanation }) => explanation));
  const sequential = options.sequential
    ? decideSequential({
        prompts: compared.map(({ prompt }) => prompt),
        runScores,
        budget: options.sequential.budget,
        order: options.sequential.order,
        // A guard is looked for from above its own bar (1 − margin): a look that clears it ends the round early, as a target's does.
        bar: options.gate.role === "guard" ? 1 - (options.gate.margin ?? DEFAULT_GUARD_MARGIN) : options.gate.minRoundScore,
        calibrated: options.noise && options.noise.problems.length === 0 ? (options.sequential.calibrated ?? null) : null,
      })
    : null;
  // A budget's interval is the test's own bound at its latest look, so that its low end and the verdict agree.
  const lastLook = sequential?.looks.at(-1);
  const interval =
    sequential && lastLook ? { low: lastLook.low, high: lastLook.high, confidence: 1 - 2 * sequential.alpha } : bootstrapInterval();
  const regression: RoundRegression | null =
    roundScore === null
      ? null
      : {
          regressed: findRegressedPrompts(
            compared.map(({ prompt, index }) => ({
              id: prompt.id ?? `prompt ${index + 1}`,
              status: aggregated[index]?.status ?? "excluded",
              score: aggregated[index]?.score ?? null,
            })),
            effectiveRegressionFloor({ ...options.gate, bar: gateBar(options.gate, options.noise) }),
          ),
          ...measureLatencyRatios(servedRuns.map((run) => compared.flatMap(({ prompt }) => (prompt.runs[run] ? [prompt.runs[run]] : [])))),
        };
  const countOf = (status: PromptStatus): number => aggregated.filter((prompt) => prompt.status === status).length;
  const unscored = aggregated.filter((prompt) => UNSCORED_STATUSES.has(prompt.status)).length;
  const breakdown = STATUS_WORDS.map(([status, words]) => [countOf(status), words] as const)
    .filter(([n]) => n > 0)
    .map(([n, words]) => `${n} ${words}`)
    .join(", ");
  const quality = options.quality ? judgeQuality(options.quality, options.gate.quality?.maxDrop ?? DEFAULT_MAX_QUALITY_DROP) : null;
  const regressionEvidence = regression ? { compared: counted.length, regressed: regression.regressed, ratios: regression } : null;
  const gate = evaluateGate(
    {
      roundScore,
      interval,
      promptsCompared: counted.length,
      unscored,
      unscoredBreakdown: breakdown,
      baselineFailure: options.baselineFailure,
      infrastructureFailure: options.infrastructureFailure ?? null,
      candidateFailure: options.candidateFailure ?? null,
      noScoreReason: roundScore === null ? describeNoScore(aggregated, options.failure) : null,
      noise: options.noise ?? null,
      medianAgreement,
      medianAgreementExplained,
      unexplained: unexplained.count,
      unexplainedBreakdown: unexplained.breakdown,
      unexplainedAnswers,
      runsServed: servedRuns.length,
      sequential: sequential ? { passed: sequential.decision === "pass", statement: sequential.statement } : null,
      regression: regressionEvidence,
      quality,
    },
    options.gate,
  );
  const speedReasons = regressionReasons({ regression: regressionEvidence, roundScore, noise: options.noise ?? null }, options.gate);
  const stop = sequential
    ? judgeLook({
        failed: Boolean(options.baselineFailure || options.infrastructureFailure || options.candidateFailure),
        unfixable: counted.length < options.gate.minPrompts || (options.noise?.problems.length ?? 0) > 0,
        integrityReasons: gate.reasons.filter((reason) => reason !== gate.rule && !speedReasons.includes(reason)).length,
        speedReasons: speedReasons.length,
        baselineVaries: unexplainedAnswers?.baselineVaries ?? false,
        sequential,
      })
    : null;
  return {
    roundScore,
    interval,
    runs: { completed: runCount, scores: runScores },
    promptsScored: countOf("scored"),
    promptsTotal: prompts.length,
    belowTolerance: countOf("below_tolerance"),
    diverged: countOf("diverged"),
    implausible: countOf("implausible"),
    zeroedTotal: countOf("zeroed"),
    unscored,
    excluded: countOf("excluded"),
    medianAgreement,
    unexplained: unexplained.count,
    unexplainedAnswers,
    regression,
    prompts: aggregated,
    quality,
    gate,
    sequential: sequential ? { ...sequential, stop } : null,
  };
}
