import { type RunPromptScores, type ScoreInterval, bootstrapRunsAndPrompts } from "./bootstrap-interval.js";
import { type AggregatedPrompt, type RunOutcome, aggregatePromptRuns } from "./aggregate-prompt-runs.js";
import { type GateResult, type GateSettings, MIN_PROMPTS_FOR_INTERVAL, type NoiseInput, evaluateGate } from "./evaluate-gate.js";
import { compareIds } from "./compare-ids.js";
import { type BaselineSelf, type ExplainRules, isExplainedRun } from "./explain-unscored-run.js";
import { DEFAULT_AGREEMENT_TOKENS, DEFAULT_MIN_PROMPT_AGREEMENT } from "./judge-agreement.js";
import { median } from "./median.js";
import { type PromptStatus, UNSCORED_STATUSES } from "./score-prompt.js";

/** The little of a prompt's result that the round summary depends on: its outcome in each run, in run order. */
export interface PromptOutcome {
  /** For the gate's reasons. */
  id?: string;
  runs: readonly RunOutcome[];
  /** The baseline's least agreeing pair of its own answers over the runs (measureBaselineSelf); null or absent when not known. */
  baselineSelf?: BaselineSelf | null;
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
  /** Each prompt over its runs, in input order. */
  prompts: AggregatedPrompt[];
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
  /** The round's tolerance and agreement rules, for telling which cuts and partings the baseline explains; default: tolerance 0.9, the rules' defaults. */
  rules?: Partial<ExplainRules>;
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
  if (prompts.every((prompt) => prompt.status === "excluded")) return "the baseline answered none of the prompts, so there is nothing to compare with";
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

const STATUS_LABEL: Partial<Record<PromptStatus, string>> = { below_tolerance: "below tolerance", diverged: "diverged" };
const MAX_NAMED_UNEXPLAINED = 5;

/**
 * The compared prompts whose cuts or partings the baseline's own answers do not explain, and a short
 * list of them ("p3 (run 1, below tolerance)") for the gate's reason.
 */
function findUnexplained(prompts: readonly PromptOutcome[], served: readonly number[], rules: ExplainRules): { count: number; breakdown: string } {
  const found: Array<{ id: string; status: PromptStatus; where: string }> = [];
  prompts.forEach((prompt, index) => {
    const lengths = prompt.runs.map((run) => run.baselineTokens).filter((value): value is number => typeof value === "number");
    const self = prompt.baselineSelf ?? null;
    const first = served
      .map((run) => ({ run, outcome: prompt.runs[run] }))
      .find(({ outcome }) => outcome !== undefined && STATUS_LABEL[outcome.status] !== undefined && !isExplainedRun(outcome, lengths, self, rules));
    if (!first?.outcome) return;
    const id = prompt.id ?? `prompt ${index + 1}`;
    found.push({ id, status: first.outcome.status, where: prompt.runs.length > 1 ? `${id} run ${first.run + 1}` : id });
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
      return options.baselineFailure ? { status: "excluded" as const, score: null, speedup: null, reason } : { status: "zeroed" as const, score: 0, speedup: null, reason };
    }
    // Unmeasured: the first run's status and reason still say what happened to the prompt.
    const shown = aggregatePromptRuns(prompt.runs);
    return { ...shown, score: shown.status === "excluded" ? null : 0 };
  });
  const counted = aggregated.filter((prompt) => prompt.status !== "excluded");
  const scores = servedRuns.length > 0 ? counted.map((prompt) => prompt.score ?? 0) : [];
  const roundScore = median(scores);

  const matrix: RunPromptScores = { runs: servedRuns.length, prompts: prompts.length, values: new Float64Array(servedRuns.length * prompts.length) };
  servedRuns.forEach((run, row) => {
    prompts.forEach((prompt, column) => {
      const outcome = prompt.runs[run];
      matrix.values[row * prompts.length + column] = !outcome || outcome.status === "excluded" ? Number.NaN : UNSCORED_STATUSES.has(outcome.status) ? 0 : (outcome.score ?? 0);
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
  const comparedPrompts = prompts.filter((_, index) => aggregated[index]?.status !== "excluded");
  const unexplained = findUnexplained(comparedPrompts, servedRuns, rules);
  const medianAgreement = median(
    aggregated.filter((prompt) => prompt.status !== "excluded").flatMap((prompt) => (typeof prompt.agreement === "number" ? [prompt.agreement] : [])),
  );
  const medianAgreementExplained = median(
    aggregated.flatMap((prompt, index) => {
      if (prompt.status === "excluded" || typeof prompt.agreement !== "number") return [];
      return [agreementBeyondBaseline(prompt.agreement, prompts[index]?.baselineSelf ?? null)];
    }),
  );
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
    prompts: aggregated,
    gate,
  };
}
