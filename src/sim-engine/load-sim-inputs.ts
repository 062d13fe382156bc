import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { ConfigError } from "../vocabulary/config-error.js";
import { parsePrompts } from "../prompts/parse-prompts.js";
import type { Prompt } from "../prompts/prompt.js";
import { parseQuestionSet } from "../prompts/parse-question-set.js";
import type { Question } from "../prompts/question.js";
import { type AnswerWords, BUILT_IN_WORDS } from "./answer-text.js";
import { pickTokenizerWords } from "./pick-tokenizer-words.js";
import type { SimProfile } from "./sim-profile.js";

export interface SimInputs {
  prompts: readonly Prompt[];
  words: AnswerWords;
  /** The quality question set the profile's questions.file names; empty without one. */
  questions: readonly Question[];
}

async function readText(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    throw new ConfigError(`${what}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}

/** The files a profile names (promptsFile, tokenizer, questions.file), relative to `baseDir`; a problem is a ConfigError naming it. */
export async function loadSimInputs(profile: SimProfile, baseDir: string): Promise<SimInputs> {
  let prompts: readonly Prompt[] = [];
  if (profile.promptsFile) {
    const path = resolve(baseDir, profile.promptsFile);
    prompts = parsePrompts(await readText(path, "promptsFile"), path);
  }
  let words = BUILT_IN_WORDS;
  if (profile.tokenizer) {
    const path = resolve(baseDir, profile.tokenizer);
    try {
      words = pickTokenizerWords(JSON.parse(await readText(path, "tokenizer")) as Record<string, unknown>, path);
    } catch (error) {
      if (error instanceof ConfigError) throw error;
      throw new ConfigError(`tokenizer: ${(error as Error).message}`);
    }
  }
  let questions: readonly Question[] = [];
  if (profile.questions.file) {
    const path = resolve(baseDir, profile.questions.file);
    questions = parseQuestionSet(await readText(path, "questions.file"), path);
  }
  return { prompts, words, questions };
}
