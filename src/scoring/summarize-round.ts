import { type RunPromptScores, type ScoreInterval, bootstrapRunsAndPrompts } from "./bootstrap-interval.js";
import { type AggregatedPrompt, type RunOutcome, aggregatePromptRuns } from "./aggregate-prompt-runs.js";
import {
  type GateResult,
  type GateSettings,
  MIN_PROMPTS_FOR_INTERVAL,
  type NoiseInput,
  type UnexplainedAnswers,
  evaluateGate,
} from "./evaluate-gate.js";
import { compareIds } from "./compare-ids.js";
import { DEFAULT_MAX_QUALITY_DROP, type QualityJudgement, type QuestionOutcome, judgeQuality } from "./judge-quality.js";
import { type PromptExplanation, type UnexplainedKind, explainPromptAnswers } from "./explain-prompt-answers.js";
import type { BaselineSelf, ExplainRules } from "./explain-unscored-run.js";
import { DEFAULT_AGREEMENT_TOKENS, DEFAULT_MIN_PROMPT_AGREEMENT } from "./judge-agreement.js";
import { median } from "./median.js";
import { type AnswerPrefixes, distinctAnswers } from "./pooled-answers.js";
import { shuffleUnexplained } from "./shuffle-unexplained.js";
import { type PromptStatus, UNSCORED_STATUSES } from "./score-prompt.js";

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
  /** Each prompt over its runs, in input order. */
  prompts: AggregatedPrompt[];
  /** The question set judged (judgeQuality); null when the round has no quality:. */
  quality: QualityJudgement | null;
  gate: GateResult;
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
  return result.compared === 0 ? null : { count: result.observed, compared: result.compared, pValue: result.pValue, baselineVaries };
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
  const interval =
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
  const countOf = (status: PromptStatus): number => aggregated.filter((prompt) => prompt.status === status).length;
  const unscored = aggregated.filter((prompt) => UNSCORED_STATUSES.has(prompt.status)).length;
  const breakdown = STATUS_WORDS.map(([status, words]) => [countOf(status), words] as const)
    .filter(([n]) => n > 0)
    .map(([n, words]) => `${n} ${words}`)
    .join(", ");
  const quality = options.quality ? judgeQuality(options.quality, options.gate.quality?.maxDrop ?? DEFAULT_MAX_QUALITY_DROP) : null;
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
      quality,
    },
    options.gate,
  );
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
    prompts: aggregated,
    quality,
    gate,
  };
}
