/** One text as a tokenizer splits it: the token ids, and where in the text each token ends. */
export interface CountedText {
  ids: Int32Array;
  /**
   * For each token, the UTF-16 offset in the text just past the character that holds its last
   * byte: the token is complete once that much of the text has streamed. Non-decreasing.
   */
  ends: Uint32Array;
}

/** Speedgate's own token counting, from the model's tokenizer.json. */
export interface TokenCounter {
  /** sha256 of the tokenizer.json bytes, for the card: which tokenizer counted. */
  readonly sha256: string;
  /** Where it was read from, for messages (a runner path, or "image:<path>"). */
  readonly source: string;
  count(text: string): CountedText;
}
