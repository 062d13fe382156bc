import type { EngineFailure } from "../vocabulary/engine-failure.js";
import type { ReportedEngineTimes } from "../vocabulary/engine-reported-times.js";
import type { RunOutcome } from "./aggregate-prompt-runs.js";
import { type GateSettings, type NoiseInput, answersJudgedByQuality } from "./evaluate-gate.js";
import { DEFAULT_MAX_QUALITY_DROP, type QuestionOutcome, judgeQuality } from "./judge-quality.js";
import type { BaselineSelf } from "./explain-unscored-run.js";
import { type BranchMatch, type CandidateBranch, matchBranches } from "./match-branches.js";
import { measureBaselineSelf } from "./measure-baseline-self.js";
import { type RequestRecord, timeToTokens } from "./request-record.js";
import { type PromptScore, type StatusEvidence, scorePrompt } from "./score-prompt.js";
import { MIN_CANDIDATE_MS, speedupFromTimes } from "./speedup-from-times.js";
import { type RoundSummary, type SummarizeOptions, summarizeRound } from "./summarize-round.js";

/** One engine's side of one run: a record per prompt it was sent, and the failure that stopped it, if any. */
export interface EngineRoundResult {
  records: ReadonlyMap<string, RequestRecord>;
  failure: EngineFailure | null;
  /** The engine's own times over the measured requests, from its metrics endpoint (SGLang, vLLM); absent when not read. */
  reportedTimes?: ReportedEngineTimes | null;
}

/** One run of a round: the baseline's benchmark and the candidate's that followed it. */
export interface RoundRun {
  baseline: EngineRoundResult;
  candidate: EngineRoundResult;
}

/**
 * One prompt in one run, as the card keeps it: enough for anyone to recompute the run's score
 * (T_b(k) / T_c(k)) and status from the card alone.
 */
export interface PromptRunResult extends RunOutcome {
  /** k = min(n_b, n_c): the output length both engines are timed at; null when not compared. */
  comparedTokens: number | null;
  /** Tokens both answers share from the start, at most k; null when their texts were not compared. */
  agreedTokens: number | null;
  /** What a diverged or implausible status rests on; null otherwise. */
  evidence: StatusEvidence | null;
  /** Output tokens each engine answered; null when it gave no answer (failed or not sent). */
  baselineTokens: number | null;
  candidateTokens: number | null;
  /** Milliseconds from sending to the chunk that reached k tokens, rounded to the microsecond. */
  baselineMs: number | null;
  candidateMs: number | null;
  /** For answers that part within k: the same, at the tokens they share; null otherwise. */
  agreedBaselineMs: number | null;
  agreedCandidateMs: number | null;
  /**
   * How the candidate's answer relates to the baseline's answers over the round's runs (matchBranches),
   * the baseline run (1-based) it was timed against, and, for one no baseline answer explains, whether
   * it parted where the baseline's own answers part; absent where answers were not compared.
   */
  match?: BranchMatch | null;
  baselineRun?: number | null;
  baselinePartsHere?: boolean;
  /** The run's own records, for the speed breakdown over every run; never written to the card. */
  baselineRecord: RequestRecord | null;
  candidateRecord: RequestRecord | null;
}

export interface ScoredPrompt extends PromptScore {
  id: string;
  /** The first run's records, for the card's per-prompt columns. */
  baseline: RequestRecord | null;
  candidate: RequestRecord | null;
  runs: PromptRunResult[];
  /** The baseline's least agreeing pair of its own answers over the runs; null with one run. */
  baselineSelf: BaselineSelf | null;
  /** The pooled answers' prefix relation (BranchAnalysis.prefixes) for the shuffle test; null when answers were not compared. */
  answerPrefixes: Array<number[] | null> | null;
  /** Distinct answers the baseline gave over the runs; null when answers were not compared. */
  baselineAnswers: number | null;
}

export interface RoundResult extends RoundSummary {
  prompts: ScoredPrompt[];
}

export interface ScoreRoundInput {
  promptIds: readonly string[];
  /** The runs that were started, in order; none when the round ended while preparing. */
  runs: readonly RoundRun[];
  /** The failure that stopped the round, with its run; by default the first failure in the runs. */
  failure?: EngineFailure | null;
  /** Runs the round was set to do (bench.runs), for the failure's wording. */
  plannedRuns?: number;
  tolerance: number;
  gate: GateSettings;
  noise?: NoiseInput | null;
  bootstrapSeed?: number;
  /** bench.agreementTokens (default 16; 0: answers are not checked). */
  agreementTokens?: number;
  /** bench.minPromptAgreement (default 0.5; 0: off). */
  minPromptAgreement?: number;
  /** Each question of the round's quality set, right or wrong per run for each engine; null or absent without quality:. */
  quality?: readonly QuestionOutcome[] | null;
}

/** Times on the card are kept to the microsecond. */
const round3 = (value: number): number => Math.round(value * 1000) / 1000;

/** A run's times as the card keeps them: at k, and for answers that part, at the tokens they share. */
export interface RunTimes {
  baselineMs: number | null;
  candidateMs: number | null;
  agreedBaselineMs?: number | null;
  agreedCandidateMs?: number | null;
  /** "none": no baseline answer explains the candidate's, which is then timed only over what it shares with the one it follows. */
  match?: BranchMatch | null;
}

/**
 * A run's speedup from the times the card keeps: the one formula a fresh round, a merge and the
 * app's re-gate share. Timed at k; when the answers part within k, no more than over the tokens they
 * share, since what the candidate streamed after parting is not the baseline's work (honest drift is
 * as fast after parting as before, so the smaller of the two barely moves it; free filler is much
 * faster, and gains nothing). With `equalLength` (answersJudgedByQuality) an answer no baseline answer
 * explains is timed at k too: filler is then the question set's to catch. Null when the run was not timed.
 */
export function runSpeedup(run: RunTimes, options: { equalLength?: boolean } = {}): number | null {
  if (run.baselineMs === null || run.candidateMs === null) return null;
  const atK = speedupFromTimes(run.baselineMs, run.candidateMs);
  const agreedB = run.agreedBaselineMs;
  const agreedC = run.agreedCandidateMs;
  if (agreedB === null || agreedB === undefined || agreedC === null || agreedC === undefined) return atK;
  // Held to every baseline answer, one that parts from all of them is timed only up to the parting, unless the
  // question set judges changed answers (gate.answers: quality): then it is timed at equal length like any other.
  if (run.match === "none") return options.equalLength ? atK : speedupFromTimes(agreedB, agreedC);
  return Math.min(atK, speedupFromTimes(agreedB, agreedC));
}

export function describeEngineFailure(
  failure: Pick<EngineFailure, "engine" | "stage" | "label" | "prompt"> & { run?: number | null },
  runs = 1,
): string {
  const where = runs > 1 && failure.run ? ` in run ${failure.run} of ${runs}` : "";
  const prompt = failure.prompt ? `, during prompt ${failure.prompt.number}` : "";
  return `${failure.engine} engine failed at ${failure.stage}${where}${prompt} (${failure.label})`;
}

/** A prompt an engine never answered because the engine had already failed gets that failure as its reason. */
function notSent(failure: EngineFailure | null): RequestRecord | undefined {
  if (!failure) return undefined;
  const when =
    failure.kind === "infrastructure"
      ? `was not measured at ${failure.stage}`
      : failure.stage === "benchmark"
        ? "died during the benchmark"
        : `failed at ${failure.stage}`;
  return { ok: false, kind: "not_sent", reason: `${failure.engine} engine ${when} (${failure.label})` };
}

/**
 * How a round's failure bears on its summary, described once: a baseline or infrastructure failure
 * gives no verdict, a candidate failure never passes, and any failure explains a missing score. A
 * fresh round, a merge of shard cards and the app's re-gate of an artifact all go through here.
 */
export function failureContext(
  failure: Pick<EngineFailure, "engine" | "kind"> | null,
  description: string | null,
): Pick<SummarizeOptions, "baselineFailure" | "candidateFailure" | "failure" | "infrastructureFailure"> {
  return {
    baselineFailure: failure?.engine === "baseline" ? description : null,
    candidateFailure: failure?.engine === "candidate" ? description : null,
    failure: failure ? description : null,
    infrastructureFailure: failure?.kind === "infrastructure" ? description : null,
  };
}

export function wasAttempted(record: RequestRecord | null | undefined): boolean {
  return record !== null && record !== undefined && !(record.ok === false && record.kind === "not_sent");
}

/** Why an unexplained answer is timed at k: the question set, not the timing, judges it (gate.answers: quality). */
export function equalLengthReason(agreed: number, k: number): string {
  return (
    `parted from every answer the baseline gave at token ${agreed + 1} of ${k}; timed at the full length, since the question set ` +
    `judges changed answers (gate.answers: quality)`
  );
}

/** Why an unexplained answer is timed over the tokens it shares with the baseline's (gate.answers: speed, the default). */
export function sharedTokensReason(agreed: number, k: number): string {
  return `parted from every answer the baseline gave at token ${agreed + 1} of ${k} and is timed over the ${agreed} tokens they share`;
}

/** The scoring rule on one prompt in one run, with the times at k kept for the card. */
function scoreRun(
  own: { baseline: RequestRecord | undefined; candidate: RequestRecord | undefined },
  reference: RequestRecord | undefined,
  branch: CandidateBranch | null,
  tolerance: number,
  rules: { agreementTokens?: number | undefined; minPromptAgreement?: number | undefined },
  equalLength: boolean,
): { score: PromptScore; run: PromptRunResult } {
  const { candidate } = own;
  // Held to the baseline's answers over the runs only where this run's own baseline answered: a failed baseline request in this run
  // excludes it, whatever the other runs gave, since the reference engine was unsound here.
  const held = own.baseline?.ok === true ? branch : null;
  const baseline = held ? reference : own.baseline;
  // Every run gets the integrity checks (own counts, plausibility, agreement): a run cannot be fair because another was.
  const score = scorePrompt(baseline, candidate, tolerance, { ...rules, branch: held });
  const k = score.comparedTokens;
  const timed = score.status === "scored" && k !== null && baseline?.ok === true && candidate?.ok === true;
  const baselineMs = timed ? round3(timeToTokens(baseline, k)) : null;
  const candidateMs = timed ? Math.max(round3(timeToTokens(candidate, k)), MIN_CANDIDATE_MS) : null;
  const agreed = score.agreedTokens;
  const parts = timed && agreed !== null && agreed !== undefined && agreed < k;
  const agreedBaselineMs = parts ? round3(timeToTokens(baseline, Math.max(1, agreed))) : null;
  const agreedCandidateMs = parts ? Math.max(round3(timeToTokens(candidate, Math.max(1, agreed))), MIN_CANDIDATE_MS) : null;
  const match = held?.match ?? null;
  const runScore = runSpeedup({ baselineMs, candidateMs, agreedBaselineMs, agreedCandidateMs, match }, { equalLength }) ?? score.score;
  const reason = timed && equalLength && match === "none" && parts ? equalLengthReason(agreed ?? 0, k) : score.reason;
  return {
    score: timed ? { ...score, score: runScore, speedup: runScore, reason } : score,
    run: {
      status: score.status,
      score: runScore,
      reason,
      candidateAttempted: wasAttempted(candidate),
      comparedTokens: k,
      agreedTokens: score.agreedTokens ?? null,
      evidence: score.evidence ?? null,
      baselineTokens: baseline?.ok ? baseline.outputTokens : null,
      candidateTokens: candidate?.ok ? candidate.outputTokens : null,
      baselineMs,
      candidateMs,
      agreedBaselineMs,
      agreedCandidateMs,
      ...(held ? { match, baselineRun: held.referenceRun + 1, baselinePartsHere: held.baselinePartsHere } : {}),
      baselineRecord: own.baseline ?? null,
      candidateRecord: candidate ?? null,
    },
  };
}

/** The failure that stopped the round: the first in run order, the baseline's before the candidate's within a run. */
export function roundFailure(runs: readonly RoundRun[]): EngineFailure | null {
  for (const run of runs) {
    const failure = run.baseline.failure ?? run.candidate.failure;
    if (failure) return failure;
  }
  return null;
}

/** Applies the scoring rule to every prompt in every run, then combines runs, the median, its interval and the gate. Pure. */
export function scoreRound(input: ScoreRoundInput): RoundResult {
  const quality = input.quality ? judgeQuality(input.quality, input.gate.quality?.maxDrop ?? DEFAULT_MAX_QUALITY_DROP) : null;
  const equalLength = answersJudgedByQuality(input.gate, quality);
  const perPrompt = input.promptIds.map((id) => {
    const own = input.runs.map((run) => ({
      baseline: run.baseline.records.get(id) ?? notSent(run.baseline.failure),
      candidate: run.candidate.records.get(id) ?? notSent(run.candidate.failure),
    }));
    const branches = matchBranches({ baseline: own.map((run) => run.baseline), candidate: own.map((run) => run.candidate) });
    const compared = branches.candidate.some((branch) => branch !== null);
    const scored = own.map((records, index) => {
      const branch = branches.candidate[index] ?? null;
      const reference = branch ? own[branch.referenceRun]?.baseline : undefined;
      return scoreRun(
        records,
        reference,
        branch,
        input.tolerance,
        { agreementTokens: input.agreementTokens, minPromptAgreement: input.minPromptAgreement },
        equalLength,
      );
    });
    return {
      id,
      scored,
      baselineSelf: measureBaselineSelf(input.runs.map((run) => run.baseline.records.get(id))),
      answerPrefixes: compared ? branches.prefixes : null,
      baselineAnswers: compared ? branches.baselineAnswers : null,
    };
  });
  const failure = input.failure === undefined ? roundFailure(input.runs) : input.failure;
  const summary = summarizeRound(
    perPrompt.map(({ id, scored, baselineSelf, answerPrefixes }) => ({
      id,
      runs: scored.map(({ run }) => run),
      baselineSelf,
      answerPrefixes,
    })),
    {
      rules: { tolerance: input.tolerance, agreementTokens: input.agreementTokens, minPromptAgreement: input.minPromptAgreement },
      gate: input.gate,
      ...failureContext(failure, failure ? describeEngineFailure(failure, input.plannedRuns ?? input.runs.length) : null),
      noise: input.noise ?? null,
      bootstrapSeed: input.bootstrapSeed,
      quality: input.quality ?? null,
    },
  );
  const first = input.runs[0];
  const prompts: ScoredPrompt[] = perPrompt.map(({ id, scored, baselineSelf, answerPrefixes, baselineAnswers }, index) => {
    const combined = summary.prompts[index];
    const firstRun = scored[0];
    return {
      id,
      status: combined?.status ?? "excluded",
      score: combined?.score ?? null,
      speedup: combined?.speedup ?? null,
      comparedTokens: firstRun?.score.comparedTokens ?? null,
      reason: combined?.reason ?? null,
      ...(combined?.agreement !== undefined ? { agreement: combined.agreement, agreedTokens: combined.agreedTokens ?? null } : {}),
      baseline: first?.baseline.records.get(id) ?? null,
      candidate: first?.candidate.records.get(id) ?? null,
      runs: scored.map(({ run }) => run),
      baselineSelf,
      answerPrefixes,
      baselineAnswers,
    };
  });
  return { ...summary, prompts };
}
