import { type CalibrationSource, fitCalibration } from "../calibration/fit-calibration.js";
import type { RunOutcome } from "../scoring/aggregate-prompt-runs.js";
import type { GateSettings } from "../scoring/evaluate-gate.js";
import type { ExplainRules } from "../scoring/explain-unscored-run.js";
import { formatPercent } from "../scoring/format-speedup.js";
import { DEFAULT_AGREEMENT_TOKENS, DEFAULT_MIN_PROMPT_AGREEMENT, judgeAgreement } from "../scoring/judge-agreement.js";
import type { PromptStatus } from "../scoring/score-prompt.js";
import { describeEngineFailure, equalLengthReason, failureContext, runSpeedup, sharedTokensReason } from "../scoring/score-round.js";
import { answersJudgedByQuality } from "../scoring/evaluate-gate.js";
import { DEFAULT_MAX_QUALITY_DROP, judgeQuality } from "../scoring/judge-quality.js";
import { type AnswerPrefixes, answersVary, isUnexplainedAnswer } from "../scoring/pooled-answers.js";
import { summarizeRound } from "../scoring/summarize-round.js";
import { summaryFields } from "./build-scorecard.js";
import type { PromptResult, PromptRun, Scorecard } from "./scorecard-schema.js";
import type { CardCalibration } from "../calibration/calibration-schema.js";

export interface RescoreOptions {
  gate: GateSettings;
  /** Must match the seed the round used, so the interval equals the fresh round's. */
  bootstrapSeed?: number;
  /** The failure's description when it differs from the card's own (a merge names the shard). */
  failureDescription?: string | null;
}

/** The calibration a card names, without what every reader recomputes. */
export function calibrationSource(calibration: CardCalibration | null): CalibrationSource | null {
  if (!calibration) return null;
  const { noiseFloor: _floor, detectableSpeedup: _detectable, problems: _problems, notes: _notes, ...source } = calibration;
  return source;
}

/** The facts of a card its calibration must fit, as fitCalibration wants them. */
export function calibrationFacts(card: Pick<Scorecard, "engine" | "provenance" | "settings">) {
  return {
    engine: card.engine,
    gpu: card.provenance.gpu,
    runner: card.provenance.runner,
    baselineImage: card.provenance.baselineImage,
    baselineImageId: card.provenance.baselineImageId,
    promptsHash: card.provenance.promptsHash,
    settings: card.settings,
  };
}

/** Statuses only the integrity checks can decide; the card's word is kept, since it only ever lowers the score. */
const KEPT_STATUSES: ReadonlySet<PromptStatus> = new Set(["diverged", "implausible", "zeroed"]);

/**
 * The tokens both answers share within k, as the card keeps them. An older card kept none, but timed
 * an answer that parted over its shared start: a comparedTokens below k is that start.
 */
function agreedTokensOf(run: PromptRun, k: number): number | null {
  if (run.agreedTokens !== undefined) return run.agreedTokens === null ? null : Math.min(run.agreedTokens, k);
  return run.comparedTokens !== null && run.comparedTokens < k ? run.comparedTokens : null;
}

/** The round's tolerance and agreement rules as the card records them; an older card that predates a rule gets its default. */
export function cardRules(settings: Scorecard["settings"]): ExplainRules {
  return {
    tolerance: settings.tolerance,
    agreementTokens: settings.agreementTokens ?? DEFAULT_AGREEMENT_TOKENS,
    minPromptAgreement: settings.minPromptAgreement ?? DEFAULT_MIN_PROMPT_AGREEMENT,
  };
}

/**
 * One run's status and score recomputed from the tokens and times the card keeps, under the card's
 * tolerance and agreement rules. A status the data contradicts (a "scored" run that answered too
 * little or parted early, an "excluded" one that was timed) is corrected, so a card cannot score or
 * drop a prompt by relabelling it.
 */
export function rederiveRun(
  run: PromptRun,
  rules: ExplainRules,
  legacySpeedup: number | null,
  pooled: PooledRun | null = null,
  equalLength = false,
): PromptRun & RunOutcome {
  const tolerance = rules.tolerance;
  const keepReason = (status: PromptStatus, fallback: string): string => (run.status === status && run.reason ? run.reason : fallback);
  const as = (status: PromptStatus, score: number | null, reason: string | null): PromptRun & RunOutcome => ({
    ...run,
    status,
    score,
    reason,
  });
  const b = run.baselineTokens;
  const c = run.candidateTokens;
  const timed = run.baselineMs !== null && run.candidateMs !== null;
  if (b === null) return as("excluded", null, keepReason("excluded", "baseline failed: it gave no answer"));
  if (b === 0) return as("excluded", null, "the baseline answered 0 tokens: nothing to compare at equal length");
  // Excluded for what the card cannot show again (the baseline's own counts could not be true), and never timed.
  if (run.status === "excluded" && !timed) return as("excluded", null, run.reason);
  if (c === null) return as("zeroed", 0, keepReason("zeroed", "the candidate gave no answer"));
  if (KEPT_STATUSES.has(run.status)) return as(run.status, 0, run.reason);
  if (run.match !== undefined && pooled) return rederiveBranchRun(run, rules, pooled, as, equalLength);
  if (c < tolerance * b)
    return as("below_tolerance", 0, keepReason("below_tolerance", `answered ${c} of ${b} tokens (tolerance ${formatPercent(tolerance)})`));
  const agreed = agreedTokensOf(run, Math.min(b, c));
  const parting = agreed === null ? null : judgeAgreement(agreed, Math.min(b, c), rules);
  if (parting !== null) return { ...as("diverged", 0, parting), agreedTokens: agreed };
  if (agreed !== null) run = { ...run, agreedTokens: agreed };
  if (timed) return as("scored", runSpeedup(run), null);
  if (legacySpeedup !== null) return as("scored", legacySpeedup, null);
  return as("zeroed", 0, "the card keeps no times at the compared length for this run");
}

/** Where a run sits in its prompt's pooled answers (PromptResult.answerPrefixes), for runs held to every baseline answer. */
export interface PooledRun {
  prefixes: AnswerPrefixes;
  /** 0-based. */
  run: number;
}

/**
 * A run held to every answer the baseline gave (a card with answerPrefixes): whether a baseline answer
 * explains it is read from the pooled relation, not from the run's own label, and the status and
 * score follow from the tokens and times as scoreOnBranch decides them.
 */
function rederiveBranchRun(
  run: PromptRun,
  rules: ExplainRules,
  pooled: PooledRun,
  as: (status: PromptStatus, score: number | null, reason: string | null) => PromptRun & RunOutcome,
  equalLength: boolean,
): PromptRun & RunOutcome {
  const b = run.baselineTokens as number;
  const c = run.candidateTokens as number;
  const k = Math.min(b, c);
  const explained = !isUnexplainedAnswer(pooled.prefixes, pooled.run);
  const match = explained ? (run.baselineRun === pooled.run + 1 ? "same" : "other") : "none";
  const timed = run.baselineMs !== null && run.candidateMs !== null;
  const scored = (reason: string | null): PromptRun & RunOutcome =>
    timed
      ? { ...as("scored", runSpeedup({ ...run, match }, { equalLength }), reason), match }
      : { ...as("zeroed", 0, "the card keeps no times at the compared length for this run"), match };
  if (explained) return { ...scored(run.reason), agreedTokens: k };
  const agreed = Math.min(run.agreedTokens ?? k, k);
  if (agreed >= k && c < rules.tolerance * b) {
    return {
      ...as("below_tolerance", 0, run.reason ?? `answered ${c} of ${b} tokens (tolerance ${formatPercent(rules.tolerance)})`),
      match,
    };
  }
  const early = agreed < k ? judgeAgreement(agreed, k, rules) : null;
  if (early !== null && run.baselinePartsHere !== true && !answersVary(pooled.prefixes))
    return { ...as("diverged", 0, run.reason ?? early), match, agreedTokens: agreed };
  // The reason follows how the run is timed now: a card scored under gate.answers: quality re-gated without it, and back.
  const parted = agreed < k && timed;
  const reason =
    parted && equalLength
      ? equalLengthReason(agreed, k)
      : parted && run.reason === equalLengthReason(agreed, k)
        ? sharedTokensReason(agreed, k)
        : run.reason;
  return { ...scored(reason), agreedTokens: agreed };
}

/**
 * A card's prompt statuses, scores, summary and gate recomputed from its per-run tokens and times,
 * under the given gate: what the app's re-gate and a shard merge do. Nothing the card concluded (its
 * scores, counts, verdict, noise floor or calibration fit) is read back.
 */
export function rescoreCard(card: Scorecard, options: RescoreOptions): Scorecard {
  const rules = cardRules(card.settings);
  const legacy = card.convertedFrom === 1;
  const questions = card.quality?.questions ?? null;
  const maxDrop = options.gate.quality?.maxDrop ?? DEFAULT_MAX_QUALITY_DROP;
  const equalLength = answersJudgedByQuality(options.gate, questions ? judgeQuality(questions, maxDrop) : null);
  const runs = card.prompts.map((prompt) =>
    prompt.runs.map((run, index) =>
      rederiveRun(
        run,
        rules,
        legacy && prompt.status === "scored" ? prompt.speedup : null,
        prompt.answerPrefixes ? { prefixes: prompt.answerPrefixes, run: index } : null,
        equalLength,
      ),
    ),
  );
  const source = calibrationSource(card.gate.calibration);
  const calibration = source ? fitCalibration(source, calibrationFacts(card)) : null;
  const failure = card.failure;
  const description = options.failureDescription ?? (failure ? describeEngineFailure(failure, card.settings.runs) : null);
  const summary = summarizeRound(
    runs.map((promptRuns, index) => ({
      id: card.prompts[index]?.id,
      runs: promptRuns,
      baselineSelf: card.prompts[index]?.baselineSelf ?? null,
      answerPrefixes: card.prompts[index]?.answerPrefixes ?? null,
    })),
    {
      rules,
      gate: options.gate,
      ...failureContext(failure, description),
      noise: calibration
        ? { floor: calibration.noiseFloor, problems: calibration.problems, selfAgreement: calibration.selfAgreement ?? null }
        : null,
      bootstrapSeed: options.bootstrapSeed,
      quality: questions,
    },
  );
  const prompts: PromptResult[] = card.prompts.map((prompt, index) => {
    const combined = summary.prompts[index];
    const promptRuns = runs[index] ?? [];
    return {
      ...prompt,
      status: combined?.status ?? prompt.status,
      score: combined?.score ?? null,
      speedup: combined?.speedup ?? null,
      reason: combined?.reason ?? null,
      ...(combined?.agreement !== undefined ? { agreement: combined.agreement, agreedTokens: combined.agreedTokens ?? null } : {}),
      runs: promptRuns.map(({ score: _score, ...run }) => run),
    };
  });
  const quality = card.quality ? { quality: { ...card.quality, judgement: summary.quality } } : {};
  return { ...card, ...summaryFields(summary, calibration), ...quality, prompts };
}
