import { CONTENT_TOKENS, REASONING_TOKENS } from "./token-text.js";

/** The words (each one token of the engine's tokenizer) a sim-engine answer is made of. */
export interface AnswerWords {
  content: readonly string[];
  reasoning: readonly string[];
}

export const BUILT_IN_WORDS: AnswerWords = { content: CONTENT_TOKENS, reasoning: REASONING_TOKENS };

/** How the answer departs from the honest one. */
export interface AnswerStyle {
  /** A cheat: the same word over and over instead of the answer. */
  filler: boolean;
  /** From this token on the answer is another (as a kernel change can make a model's output drift late); null: never. */
  divergeAfterTokens: number | null;
  /** A cheat: from this token on, filler (streamed faster); null: never. */
  fillerAfterTokens?: number | null;
  /**
   * From this token on the answer is the prompt's second continuation (answer.branches): another answer the same engine gives; null: the
   * first.
   */
  branchAfterTokens?: number | null;
  /**
   * An answer to a quality question ends in its final answer: token `at` (counted over the whole answer) is this text. A
   * numerics change that parts the answer before it leaves it as it is; filler or a cut never reaches it.
   */
  finalAnswer?: { at: number; text: string } | null;
}

export const HONEST: AnswerStyle = { filler: false, divergeAfterTokens: null };

function word(list: readonly string[], index: number): string {
  return list[index % list.length] ?? " x";
}

/**
 * Token `index` (0-based, counted over the whole answer) of one kind. The honest answer cycles
 * through the words; a diverging one continues one word ahead, which differs at every position.
 */
export function answerToken(
  words: AnswerWords,
  style: AnswerStyle,
  kind: "content" | "reasoning",
  index: number,
  answerIndex: number,
): string {
  const list = kind === "content" ? words.content : words.reasoning;
  // The filler word differs from the answer's first word, so the answers part at once.
  if (style.filler || (style.fillerAfterTokens != null && answerIndex >= style.fillerAfterTokens)) return word(list, 1);
  if (kind === "content" && style.finalAnswer && answerIndex === style.finalAnswer.at) return style.finalAnswer.text;
  if (style.divergeAfterTokens !== null && answerIndex >= style.divergeAfterTokens) return word(list, index + 1);
  if (style.branchAfterTokens != null && answerIndex >= style.branchAfterTokens) return word(list, index + 3);
  return word(list, index);
}

/**
 * The same choice as answerToken, as a token id instead of a word: what the offline model
 * (simulate-round.ts) records, so that answers compare token by token as speedgate's tokenizer would
 * have them. Ids of the first continuation, the second, a drift and filler never coincide.
 */
export function answerTokenId(style: AnswerStyle, index: number, answerIndex: number): number {
  if (style.filler || (style.fillerAfterTokens != null && answerIndex >= style.fillerAfterTokens)) return 1;
  if (style.divergeAfterTokens !== null && answerIndex >= style.divergeAfterTokens) return 1_000_000 + index;
  if (style.branchAfterTokens != null && answerIndex >= style.branchAfterTokens) return 2_000_000 + index;
  return 10 + index;
}

/**
 * The text of tokens [from, to) of one kind as one streamed delta. `offset` is where this kind
 * starts in the whole answer (the reasoning comes first), for the divergence point.
 */
export function answerRun(
  words: AnswerWords,
  style: AnswerStyle,
  kind: "content" | "reasoning",
  from: number,
  to: number,
  offset: number,
): string {
  let text = "";
  for (let index = from; index < to; index++) text += answerToken(words, style, kind, index, offset + index);
  return text;
}
