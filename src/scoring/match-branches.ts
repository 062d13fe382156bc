import { compareAnswers } from "./compare-answers.js";
import { answersVary, distinctAnswers, poolIndex } from "./pooled-answers.js";
import type { CompletedRequest, RequestRecord } from "./request-record.js";

/*
 * A batching engine at temperature 0 does not always give one answer: where two next tokens are within
 * rounding of each other, what else shares the batch decides, so the same prompt can get either of two
 * continuations from run to run (He et al., "Defeating Nondeterminism in LLM Inference", 2025). The
 * baseline's answers to a prompt over the round's runs are the answers that engine gives, its branches.
 * A candidate's answer is held to all of them, not only to the one the baseline happened to give in the
 * same run: one that a baseline answer is the start of (or equal to) is on a branch the engine takes,
 * and is timed against that answer; one that no baseline answer explains parted where the engine never
 * did, or stopped where it always ran on.
 */

/** How a candidate's answer in one run relates to the baseline's answers over the round's runs. */
export type BranchMatch =
  /** The same run's baseline answer is the start of it, or equal to it. */
  | "same"
  /** Another run's baseline answer is: the engine's own variation, not the patch's doing. */
  | "other"
  /** No baseline answer is: it parts from every one, or stops where every one it follows ran on. */
  | "none";

export interface CandidateBranch {
  match: BranchMatch;
  /** The baseline run (0-based) it is timed against: the answer that explains it, else the one it follows longest. */
  referenceRun: number;
  /** Tokens it shares from the start with that answer (in that answer's count), at most the shorter length. */
  agreedTokens: number;
  /** Unexplained and a strict start of the reference: it stopped where that baseline answer ran on. */
  cut: boolean;
  /** Unexplained and parting at a token where two of the baseline's own answers part from each other too. */
  baselinePartsHere: boolean;
  /**
   * Either engine gave the prompt more than one answer over the runs: the engine's answers to it vary,
   * so an early parting may be a continuation the baseline happened not to take. A candidate that gives
   * one other answer every time, on a prompt the baseline always answers one way, does not vary.
   */
  answersVary: boolean;
}

/** One prompt's answers over a round: the baseline's in each run, then the candidate's; null where an engine gave none. */
export interface PromptAnswers {
  baseline: ReadonlyArray<RequestRecord | null | undefined>;
  candidate: ReadonlyArray<RequestRecord | null | undefined>;
}

export interface BranchAnalysis {
  /** Per candidate run; null where either side has nothing to compare (a failed request, or records that keep no text). */
  candidate: Array<CandidateBranch | null>;
  /**
   * The prefix relation of the pooled answers (pooled-answers.ts: the baseline's runs first, then the
   * candidate's). Kept on the card: it is all the shuffle test (shuffle-unexplained.ts) needs.
   */
  prefixes: Array<number[] | null>;
  /** Distinct answers the baseline gave over the runs (equal answers counted once); 0 when it gave none to compare. */
  baselineAnswers: number;
}

function completed(record: RequestRecord | null | undefined): CompletedRequest | null {
  return record?.ok === true ? record : null;
}

/** Whether records can be compared by content: both keep token ids, or both keep their texts. */
function comparable(a: CompletedRequest, b: CompletedRequest): boolean {
  return (a.tokenIds !== undefined && b.tokenIds !== undefined) || (a.text !== undefined && b.text !== undefined);
}

/** An answer's length in the unit two answers are compared in: token ids when both keep them, else UTF-16 text. */
function lengthIn(record: CompletedRequest, byTokens: boolean): number {
  if (byTokens && record.tokenIds) return record.tokenIds.reasoning.length + record.tokenIds.content.length;
  return (record.text?.reasoning.length ?? 0) + (record.text?.content.length ?? 0);
}

interface Relation {
  /** `a` is the start of `b`, or equal to it. */
  aStartsB: boolean;
  /** Tokens they share from the start, in a's count. */
  common: number;
  parted: boolean;
}

function relate(a: CompletedRequest, b: CompletedRequest): Relation | null {
  if (!comparable(a, b)) return null;
  const comparison = compareAnswers(a, b);
  if (!comparison) return null;
  const byTokens = comparison.by === "tokens";
  if (comparison.parted) return { aStartsB: false, common: comparison.commonTokens, parted: true };
  return { aStartsB: lengthIn(a, byTokens) <= lengthIn(b, byTokens), common: Math.min(a.outputTokens, b.outputTokens), parted: false };
}

/**
 * Relates every candidate answer of one prompt to the baseline's answers over the round's runs (see
 * the note at the top). Records that keep neither texts nor token ids are not compared (null): the
 * plain length rules of scorePrompt then apply, as they did before answers were kept.
 */
export function matchBranches(answers: PromptAnswers): BranchAnalysis {
  const runs = Math.max(answers.baseline.length, answers.candidate.length);
  const baseline = Array.from({ length: runs }, (_, run) => completed(answers.baseline[run]));
  const candidate = Array.from({ length: runs }, (_, run) => completed(answers.candidate[run]));
  const pooled = [...baseline, ...candidate];
  const relations = new Map<string, Relation | null>();
  const relationOf = (i: number, j: number): Relation | null => {
    const key = `${i}:${j}`;
    if (!relations.has(key)) {
      const a = pooled[i];
      const b = pooled[j];
      relations.set(key, a && b ? relate(a, b) : null);
    }
    return relations.get(key) ?? null;
  };
  const prefixes: Array<number[] | null> = pooled.map((answer, i) =>
    answer ? pooled.flatMap((_, j) => (i !== j && relationOf(j, i)?.aStartsB ? [j] : [])) : null,
  );
  const vary = answersVary(prefixes);
  const analysed = candidate.map((answer, run): CandidateBranch | null => {
    if (!answer) return null;
    const related = baseline.flatMap((record, baselineRun) => {
      const relation = record ? relationOf(poolIndex(runs, "baseline", baselineRun), poolIndex(runs, "candidate", run)) : null;
      return record && relation ? [{ run: baselineRun, record, relation }] : [];
    });
    if (related.length === 0) return null;
    const explaining = related.filter(({ relation }) => relation.aStartsB);
    if (explaining.length > 0) {
      // The same run's answer when it explains this one (the pairing the round was run in), else the longest that does.
      const reference =
        explaining.find((entry) => entry.run === run) ??
        explaining.reduce((best, entry) => (entry.record.outputTokens > best.record.outputTokens ? entry : best));
      const agreedTokens = Math.min(reference.record.outputTokens, answer.outputTokens);
      return {
        match: reference.run === run ? "same" : "other",
        referenceRun: reference.run,
        agreedTokens,
        cut: false,
        baselinePartsHere: false,
        answersVary: vary,
      };
    }
    // Unexplained: timed against the answer it follows longest (the same run's on a tie).
    const longest = related.reduce((best, entry) => {
      if (entry.relation.common > best.relation.common) return entry;
      if (entry.relation.common === best.relation.common && entry.run === run) return entry;
      return best;
    });
    const agreedTokens = Math.min(longest.relation.common, longest.record.outputTokens, answer.outputTokens);
    const cut = !longest.relation.parted;
    // Two of the baseline's own answers that follow this one as far and part from each other right there.
    const alongside = related.filter((entry) => entry.relation.parted && Math.abs(entry.relation.common - agreedTokens) <= 1);
    const partsHere = (first: { run: number }, second: { run: number }): boolean => {
      const between = relationOf(poolIndex(runs, "baseline", first.run), poolIndex(runs, "baseline", second.run));
      return between !== null && between.parted && Math.abs(between.common - agreedTokens) <= 1;
    };
    const baselinePartsHere = alongside.some((first, x) => alongside.slice(x + 1).some((second) => partsHere(first, second)));
    return { match: "none", referenceRun: longest.run, agreedTokens, cut, baselinePartsHere: !cut && baselinePartsHere, answersVary: vary };
  });

  const anyCompared = [...relations.values()].some((relation) => relation !== null);
  const baselineAnswers = anyCompared ? distinctAnswers(prefixes, "baseline") : 0;
  return { candidate: analysed, prefixes, baselineAnswers };
}
