/**
 * Tokens an engine may count without streaming any text for them: the end-of-sequence token, and a
 * reasoning model's <think> and </think>, which engines strip from the stream but count in usage.
 */
export const UNSTREAMED_TOKEN_SLACK = 8;

/**
 * How far two honest counts of the same text may differ: an engine counts the tokens it generated,
 * which are not always the ones a re-tokenization of the text gives (a model can spell a word in
 * two tokens where the tokenizer uses one), and may count unstreamed tokens.
 */
export function countSlack(count: number): number {
  return Math.max(UNSTREAMED_TOKEN_SLACK, Math.ceil(count * 0.02));
}
