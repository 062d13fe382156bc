import { answersJudgedByQuality } from "../../scoring/evaluate-gate.js";
import type { Scorecard } from "../scorecard-schema.js";

/** One row of the card's first screen about the question set: its label, a mark and the sentence. */
export interface QualityRow {
  label: string;
  mark: "✅" | "❌" | "—";
  text: string;
}

/** Questions a row names before it gives the count; the card's JSON keeps them all. */
const NAMED = 40;

function listIds(ids: readonly string[]): string {
  if (ids.length === 0) return "none";
  const named = ids.slice(0, NAMED).join(", ");
  return ids.length > NAMED ? `${named} and ${ids.length - NAMED} more` : named;
}

/**
 * The question set's rows of the first screen: the Quality row in one line ("accuracy 181/200 →
 * 180/200, −0.5 points [−3.7, +2.6]; 7 questions answered differently (4 for the baseline, 3 for the
 * candidate): held"), and under gate.answers: quality the Answers row, which says what the agreement
 * rules would have weighed and that the question set judged it instead. None on a card without quality:.
 */
export function describeQualityRows(card: Scorecard): QualityRow[] {
  const judgement = card.quality?.judgement;
  if (!judgement) return [];
  const rows: QualityRow[] = [
    { label: "Quality", mark: judgement.compared === 0 ? "—" : judgement.dropped ? "❌" : "✅", text: judgement.line },
  ];
  if (answersJudgedByQuality(card.gate, judgement)) {
    const changed = card.unexplained ?? 0;
    const prompts = `${changed} prompt${changed === 1 ? "" : "s"}`;
    rows.push({
      label: "Answers",
      mark: judgement.dropped ? "❌" : "✅",
      text:
        `answers changed on ${prompts}; quality ${judgement.dropped ? "dropped" : "held"} (gate.answers: quality: an answer no ` +
        "baseline answer gives is timed at equal length and judged by the question set)",
    });
  }
  return rows;
}

/**
 * The questions the two engines answered differently, folded: each engine's own, by id. Ids only: the
 * question set stays on the runner, and a public card must not give its questions or references away.
 */
export function describeChangedQuestions(card: Scorecard): { summary: string; lines: string[] } | null {
  const quality = card.quality;
  const judgement = quality?.judgement;
  if (!quality || !judgement || judgement.compared === 0) return null;
  const changed = judgement.baselineOnly.length + judgement.candidateOnly.length;
  const runs = Math.max(0, ...quality.questions.map((question) => Math.max(question.baseline.length, question.candidate.length)));
  const counted =
    runs > 1
      ? `Each question counts by the engine's usual answer over the ${runs} runs (right in at least half of them), so one that ` +
        "flips at a near-tie in some runs weighs less than one the patch turned wrong in every run."
      : "Each question was asked once of each engine.";
  return {
    summary: `Questions answered differently (${changed} of ${judgement.compared})`,
    lines: [
      `Right for the baseline only (${judgement.baselineOnly.length}): ${listIds(judgement.baselineOnly)}`,
      `Right for the candidate only (${judgement.candidateOnly.length}): ${listIds(judgement.candidateOnly)}`,
      `${counted} A drop fails when the one-sided exact McNemar test over these questions gives p < 0.05 and it is at least ` +
        `gate.quality.maxDrop; the interval is Newcombe's for paired proportions. The set stays on the runner: the card keeps each ` +
        "question's id and whether each engine got it right in each run, never its text or reference.",
    ],
  };
}
