/*
 * Token texts the sim-engine streams. Multi-byte characters (2, 3 and 4 bytes in UTF-8) are in the
 * rotation on purpose: a client that splits packets inside a character must still count right.
 */
export const CONTENT_TOKENS = [" The", " engine", " answers", " é", " 中", " 🙂", " fast", "."];
export const REASONING_TOKENS = [" Let", " me", " think", " ü", " 思", " 🤔"];

export function contentToken(index: number): string {
  return CONTENT_TOKENS[index % CONTENT_TOKENS.length] ?? " x";
}

export function reasoningToken(index: number): string {
  return REASONING_TOKENS[index % REASONING_TOKENS.length] ?? " x";
}

/** The text of tokens [from, to) of one kind, as one streamed delta. */
export function tokenRun(kind: "content" | "reasoning", from: number, to: number): string {
  let text = "";
  for (let index = from; index < to; index++) text += kind === "content" ? contentToken(index) : reasoningToken(index);
  return text;
}
