import type { CardQuality } from "../scorecard/scorecard-schema.js";
import type { QualityRun } from "./run-quality-set.js";

/**
 * Each question's outcome per run for both engines, as the card keeps it: right, wrong, or null where the
 * engine was not asked it in that run (a failure ended the round first). Runs in the round's order, the
 * questions in the set's.
 */
export function collectQualityOutcomes(
  quality: QualityRun,
  questionsHash: string,
  runs: ReadonlyArray<{ baseline: ReadonlyMap<string, boolean> | null; candidate: ReadonlyMap<string, boolean> | null }>,
): Omit<CardQuality, "judgement"> {
  return {
    questionsHash,
    scorer: quality.settings.scorer,
    maxTokens: quality.settings.maxTokens,
    questions: quality.questions.map((question) => ({
      id: question.id,
      baseline: runs.map((run) => run.baseline?.get(question.id) ?? null),
      candidate: runs.map((run) => run.candidate?.get(question.id) ?? null),
    })),
  };
}
