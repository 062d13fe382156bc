import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { parseQuestionSet } from "../prompts/parse-question-set.js";
import type { Question } from "../prompts/question.js";
import { findReferenceProblem } from "../scoring/grade-answer.js";
import { ConfigError } from "../vocabulary/config-error.js";
import type { QualitySettings } from "./quality-settings-schema.js";

/** A round's question set as read: the questions, and the sha256 of the whole set (shards of one round must share it). */
export interface LoadedQuestionSet {
  questions: Question[];
  hash: string;
}

/**
 * quality.questions, read and checked before anything starts: every line parses, and every reference is
 * one the scorer can grade (a number for `number`, one letter for `choice`), so a set that could never be
 * answered right does not cost two engine starts to find out.
 */
export async function readQuestionSet(quality: QualitySettings): Promise<LoadedQuestionSet> {
  let text: string;
  try {
    text = await readFile(quality.questions, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new ConfigError(`quality.questions: expected a readable JSONL file, could not read ${quality.questions} (${code})`);
  }
  const questions = parseQuestionSet(text, quality.questions);
  const problems = questions.flatMap((question) => {
    const problem = findReferenceProblem(quality.scorer, question.answer);
    return problem ? [`question ${JSON.stringify(question.id)}: ${problem}`] : [];
  });
  if (problems.length > 0) throw ConfigError.fromProblems(problems.slice(0, 20), quality.questions);
  return { questions, hash: createHash("sha256").update(JSON.stringify(questions)).digest("hex") };
}
