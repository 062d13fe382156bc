import { type RunPromptScores, type ScoreInterval, bootstrapRunsAndPrompts } from "./bootstrap-interval.js";
import { type AggregatedPrompt, type RunOutcome, aggregatePromptRuns } from "./aggregate-prompt-runs.js";
import { type GateResult, type GateSettings, MIN_PROMPTS_FOR_INTERVAL, type NoiseInput, evaluateGate } from "./evaluate-gate.js";
import { compareIds } from "./compare-ids.js";
import { type BaselineSelf, type ExplainRules, isExplainedRun } from "./explain-unscored-run.js";
import { DEFAULT_AGREEMENT_TOKENS, DEFAULT_MIN_PROMPT_AGREEMENT } from "./judge-agreement.js";
import { distinctAnswers } from "./match-branches.js";
import { median } from "./median.js";
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
   * Absent on cards from before, whose rules (isExplainedRun) still apply to them.
   */
  answerPrefixes?: ReadonlyArray<readonly number[] | null> | null;
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
  unexplainedAnswers: { count: number; compared: number; pValue: number; baselineVaries: boolean } | null;
  /** Each prompt over its runs, in input order. */
  prompts: AggregatedPrompt[];
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

/**
 * A prompt's agreement as the gate's median rule holds it: an answer that parts from the baseline's
 * no earlier (as a share of the compared length) than the baseline's own least agreeing pair of
 * answers to it, over the round's runs, counts as agreeing in full. The same engine answering the
 * same prompt differently when the batch differs is not the patch's doing; with one run there is no
 * such pair, and the agreement stands as measured.
 */
function agreementBeyondBaseline(agreement: number, self: BaselineSelf | null): number {
  if (self === null || self.comparedTokens === 0) return agreement;
  return agreement >= self.agreedTokens / self.comparedTokens ? 1 : agreement;
}

const STATUS_LABEL: Partial<Record<PromptStatus | "parted", string>> = {
  below_tolerance: "below tolerance",
  diverged: "diverged",
  parted: "parted or stopped, timed to there",
};

/** Whether no baseline answer is the start of the candidate's answer in `run` (0-based), by the pooled prefix relation. */
export function isUnexplainedAnswer(prefixes: ReadonlyArray<readonly number[] | null>, run: number): boolean {
  const runs = prefixes.length / 2;
  const starts = prefixes[runs + run];
  return starts !== null && starts !== undefined && !starts.some((index) => index < runs);
}
const MAX_NAMED_UNEXPLAINED = 5;

/**
 * The compared prompts whose cuts or partings the baseline's own answers do not explain, and a short
 * list of them ("p3 (run 1, below tolerance)") for the gate's reason.
 */
function findUnexplained(
  prompts: readonly PromptOutcome[],
  served: readonly number[],
  rules: ExplainRules,
): { count: number; breakdown: string } {
  const found: Array<{ id: string; status: PromptStatus | "parted"; where: string }> = [];
  prompts.forEach((prompt, index) => {
    const lengths = prompt.runs.map((run) => run.baselineTokens).filter((value): value is number => typeof value === "number");
    const self = prompt.baselineSelf ?? null;
    const prefixes = prompt.answerPrefixes;
    const unexplained = (run: number, outcome: RunOutcome): boolean =>
      prefixes
        ? isUnexplainedAnswer(prefixes, run)
        : STATUS_LABEL[outcome.status] !== undefined && !isExplainedRun(outcome, lengths, self, rules);
    const first = served
      .map((run) => ({ run, outcome: prompt.runs[run] }))
      .find(({ run, outcome }) => outcome !== undefined && unexplained(run, outcome));
    if (!first?.outcome) return;
    const id = prompt.id ?? `prompt ${index + 1}`;
    const status = prefixes && first.outcome.status === "scored" ? "parted" : first.outcome.status;
    found.push({ id, status, where: prompt.runs.length > 1 ? `${id} run ${first.run + 1}` : id });
  });
  // By id, so that a merge of shards (which lists prompts by id) names the same ones as the unsharded round.
  const named = found.sort((a, b) => compareIds(a.id, b.id)).slice(0, MAX_NAMED_UNEXPLAINED);
  const groups = Object.entries(STATUS_LABEL).flatMap(([status, label]) => {
    const ids = named.filter((entry) => entry.status === status).map((entry) => entry.where);
    return ids.length > 0 ? [`${label}: ${ids.join(", ")}`] : [];
  });
  const more = found.length > named.length ? `; ${found.length - named.length} more` : "";
  return { count: found.length, breakdown: `${groups.join("; ")}${more}` };
}

/**
 * The shuffle test (shuffleUnexplained) over the prompts that keep the pooled relation. A run the
 * candidate never served has no candidate answer in it; the baseline's answers of every run count.
 */
function shuffleAnswers(
  prompts: readonly PromptOutcome[],
): { count: number; compared: number; pValue: number; baselineVaries: boolean } | null {
  const pooled = prompts.flatMap((prompt) => (prompt.answerPrefixes ? [{ prefixes: prompt.answerPrefixes }] : []));
  if (pooled.length === 0) return null;
  const result = shuffleUnexplained(pooled);
  const baselineVaries = pooled.some(({ prefixes }) => distinctAnswers(prefixes, 0, prefixes.length / 2) >= 2);
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
  const comparedPrompts = prompts.filter((_, index) => aggregated[index]?.status !== "excluded");
  const unexplained = findUnexplained(comparedPrompts, servedRuns, rules);
  const medianAgreement = median(
    aggregated
      .filter((prompt) => prompt.status !== "excluded")
      .flatMap((prompt) => (typeof prompt.agreement === "number" ? [prompt.agreement] : [])),
  );
  const medianAgreementExplained = median(
    aggregated.flatMap((prompt, index) => {
      if (prompt.status === "excluded" || typeof prompt.agreement !== "number") return [];
      // Held to every baseline answer, an answer's agreement already counts the engine's own branches.
      if (prompts[index]?.answerPrefixes) return [prompt.agreement];
      return [agreementBeyondBaseline(prompt.agreement, prompts[index]?.baselineSelf ?? null)];
    }),
  );
  const unexplainedAnswers = shuffleAnswers(comparedPrompts);
  const sequential = options.sequential
    ? decideSequential({
        prompts: comparedPrompts,
        runScores,
        budget: options.sequential.budget,
        order: options.sequential.order,
        bar: options.gate.minRoundScore,
        calibrated: options.noise && options.noise.problems.length === 0 ? (options.sequential.calibrated ?? null) : null,
      })
    : null;
  // A budget's interval is the test's own bound at its latest look, so that its low end and the verdict agree.
  const lastLook = sequential?.looks.at(-1);
  const interval =
    sequential && lastLook ? { low: lastLook.low, high: lastLook.high, confidence: 1 - 2 * sequential.alpha } : bootstrapInterval();
  const countOf = (status: PromptStatus): number => aggregated.filter((prompt) => prompt.status === status).length;
  const unscored = aggregated.filter((prompt) => UNSCORED_STATUSES.has(prompt.status)).length;
  const breakdown = STATUS_WORDS.map(([status, words]) => [countOf(status), words] as const)
    .filter(([n]) => n > 0)
    .map(([n, words]) => `${n} ${words}`)
    .join(", ");
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
    },
    options.gate,
  );
  const stop = sequential
    ? judgeLook({
        failed: Boolean(options.baselineFailure || options.infrastructureFailure || options.candidateFailure),
        unfixable: counted.length < options.gate.minPrompts || (options.noise?.problems.length ?? 0) > 0,
        integrityReasons: gate.reasons.filter((reason) => reason !== gate.rule).length,
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
    prompts: aggregated,
    gate,
    sequential: sequential ? { ...sequential, stop } : null,
  };
}
