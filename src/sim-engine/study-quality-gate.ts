import { type QuestionOutcome, judgeQuality } from "../scoring/judge-quality.js";
import { createSeededRandom } from "../scoring/seeded-random.js";
import { type QuestionModel, DEFAULT_QUESTION_MODEL, decideQuestionFates } from "./sim-question-model.js";

/** One setup of the quality rule's study: the engine's question model, and what the candidate changes. */
export interface QualityStudySetup {
  questions: number;
  runs: number;
  /** The baseline's model (accuracy, unsteady share); the candidate's is this with `change` over it. */
  engine: Partial<QuestionModel>;
  /** What the patch does to the answers: nothing, a numerics change, a quality drop. */
  change: Partial<Pick<QuestionModel, "numericsChange" | "qualityDrop">>;
  /** gate.quality.maxDrop. */
  maxDrop: number;
}

export interface QualityStudyResult {
  rounds: number;
  /** Rounds the quality rule failed the candidate. */
  failRate: number;
  /** The drop in accuracy the change made on average (points over the steady questions, measured per round). */
  meanTrueDrop: number;
}

/**
 * The quality rule's error rates, by simulation over the reference engine's question model: per round a
 * fresh set of questions (the model's seed is the round), each engine answering every question in every
 * run, an unsteady question right or wrong by a fresh draw each time; then judgeQuality on the per-run
 * outcomes, exactly as a card is judged. Seeded: the same on every machine.
 */
export function studyQualityGate(setup: QualityStudySetup, rounds: number, firstRound = 1): QualityStudyResult {
  const ids = Array.from({ length: setup.questions }, (_, index) => `q${index + 1}`);
  let failed = 0;
  let trueDrop = 0;
  for (let round = firstRound; round < firstRound + rounds; round++) {
    const baselineModel: QuestionModel = { ...DEFAULT_QUESTION_MODEL, ...setup.engine, seed: round };
    const baseline = decideQuestionFates(ids, baselineModel);
    const candidate = decideQuestionFates(ids, { ...baselineModel, ...setup.change });
    const random = createSeededRandom(round * 7919 + 17);
    const answer = (fate: string | undefined): boolean => (fate === "unsteady" ? random() < 0.5 : fate === "right");
    const outcomes: QuestionOutcome[] = ids.map((id) => ({
      id,
      baseline: Array.from({ length: setup.runs }, () => answer(baseline.get(id))),
      candidate: Array.from({ length: setup.runs }, () => answer(candidate.get(id))),
    }));
    const right = (fates: Map<string, string>): number => [...fates.values()].filter((fate) => fate === "right").length;
    trueDrop += (right(baseline) - right(candidate)) / setup.questions;
    if (judgeQuality(outcomes, setup.maxDrop).dropped) failed++;
  }
  return { rounds, failRate: failed / rounds, meanTrueDrop: trueDrop / rounds };
}

/** The qualityDrop share that takes `points` (0.05 = 5 points) of accuracy off an engine of this model, on average. */
export function dropShareFor(points: number, engine: Partial<QuestionModel>): number {
  const model = { ...DEFAULT_QUESTION_MODEL, ...engine };
  return Math.min(1, points / (model.accuracy * (1 - model.unsteady)));
}
