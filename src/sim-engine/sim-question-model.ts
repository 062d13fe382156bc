import { z } from "zod";
import type { Question } from "../prompts/question.js";
import { lastNumber } from "../scoring/grade-answer.js";
import { createSeededRandom } from "../scoring/seeded-random.js";

const share = (expected: string) => z.number({ error: expected }).min(0, { error: expected }).max(1, { error: expected });

/**
 * How the reference engine answers a quality question set (the round's `quality.questions`), so the
 * quality gate can be played end to end: which questions it gets right is seeded per question, a share of
 * them flips at a near-tie from request to request (a batching engine's own nondeterminism), and a patch
 * can change its numerics (other answers, the same accuracy) or drop its quality (right answers turned wrong).
 */
export const questionModelSchema = z.strictObject(
  {
    /** The question set (JSONL with reference answers) that requests are matched to by content, relative to the profile. */
    file: z.string({ error: "expected the path of a JSONL question set" }).min(1).optional(),
    /** The share of questions the engine answers right. */
    accuracy: share("expected a share of questions in [0, 1], such as 0.8").default(0.8),
    /** Which questions are right (and which a change touches): baseline and candidate agree on it as long as they share it. */
    seed: z.number({ error: "expected a whole number seed" }).int().default(1),
    /** The share of questions at a near-tie: each request of one is right or wrong with even odds, drawn with the noise's seed. */
    unsteady: share("expected a share of questions in [0, 1], such as 0.05").default(0),
    /**
     * A numerics change: this share of the right answers turns wrong and as many wrong ones turn right, in every request (other
     * answers, the same accuracy).
     */
    numericsChange: share("expected a share of the right answers in [0, 1], such as 0.05").default(0),
    /** A quality drop: this share of the right answers turns wrong in every request. */
    qualityDrop: share("expected a share of the right answers in [0, 1], such as 0.05").default(0),
    /** How many tokens an answer to a question takes, the final answer its last; null: the profile's outputTokens. */
    answerTokens: z
      .number({ error: "expected a whole number of tokens, 1 or more, or null" })
      .int({ error: "expected a whole number of tokens, 1 or more, or null" })
      .min(1, { error: "expected a whole number of tokens, 1 or more, or null" })
      .nullable()
      .default(null),
  },
  { error: "expected an object with file, accuracy, seed, unsteady, numericsChange, qualityDrop and answerTokens" },
);

export type QuestionModel = z.infer<typeof questionModelSchema>;
export const DEFAULT_QUESTION_MODEL: QuestionModel = questionModelSchema.parse({});

/** What the engine does with one question: right or wrong in every request, or by a draw per request (unsteady). */
export type QuestionFate = "right" | "wrong" | "unsteady";

/** FNV-1a of a seed and names: a uniform draw in [0, 1) that depends only on them. */
function drawFor(...parts: Array<string | number>): number {
  let hash = 0x811c9dc5;
  for (const char of parts.join("\u0000")) {
    hash ^= char.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return createSeededRandom(hash)();
}

/**
 * Each question's fate under the model, from its id and the seed alone. The numerics change takes the
 * right questions with the lowest draws and as many of the wrong ones, so accuracy stays as it was; the
 * quality drop takes its share of what is then right. Unsteady questions are set aside first: at a
 * near-tie, neither a numerics change nor a drop decides them.
 */
export function decideQuestionFates(ids: readonly string[], model: QuestionModel): Map<string, QuestionFate> {
  const fates = new Map<string, QuestionFate>();
  const right: string[] = [];
  const wrong: string[] = [];
  for (const id of ids) {
    if (drawFor(model.seed, "unsteady", id) < model.unsteady) fates.set(id, "unsteady");
    else if (drawFor(model.seed, "right", id) < model.accuracy) right.push(id);
    else wrong.push(id);
  }
  const byDraw = (kind: string) => (a: string, b: string) => drawFor(model.seed, kind, a) - drawFor(model.seed, kind, b);
  const exchanged = Math.min(Math.round(model.numericsChange * right.length), wrong.length);
  const lost = new Set([...right].sort(byDraw("numerics")).slice(0, exchanged));
  const gained = new Set([...wrong].sort(byDraw("numerics")).slice(0, exchanged));
  const rightSet = new Set(right);
  const nowRight = [...right.filter((id) => !lost.has(id)), ...gained];
  const dropped = new Set([...nowRight].sort(byDraw("drop")).slice(0, Math.round(model.qualityDrop * nowRight.length)));
  for (const id of ids) {
    if (fates.has(id)) continue;
    const isRight = (rightSet.has(id) && !lost.has(id)) || gained.has(id);
    fates.set(id, isRight && !dropped.has(id) ? "right" : "wrong");
  }
  return fates;
}

/** The value a reference answer names: what follows GSM8K's "####", else the whole reference. */
export function referenceValue(reference: string): string {
  const marked = reference.lastIndexOf("####");
  return (marked >= 0 ? reference.slice(marked + 4) : reference).trim();
}

/** A wrong value of the same kind: the number plus one, the next option letter, or the value with something added. */
export function wrongValue(value: string): string {
  const number = lastNumber(value);
  if (number !== null) return String(Number(number) + 1);
  if (/^[A-Z]$/.test(value)) return value === "D" ? "A" : String.fromCharCode(value.charCodeAt(0) + 1);
  return `${value} (not)`;
}

/** The last words of the engine's answer to a question: its final answer, which every scorer but exact reads. */
export function finalAnswerText(question: Question, right: boolean): string {
  const value = referenceValue(question.answer);
  return ` The answer is ${right ? value : wrongValue(value)}.`;
}
