/** One bad input tried, and how speedgate answered it. */
export interface CorpusRow {
  category: string;
  input: string;
  /**
   * clear: refused with a message naming the field, line or problem; crash: an unexpected error; accepted: not refused though it should be.
   */
  outcome: "clear" | "crash" | "accepted";
  message: string;
}

/** The first line of an error's message, bounded, for the report table. */
export function firstLine(text: string, max = 240): string {
  const line = text.split("\n").find((part) => part.trim() !== "") ?? "";
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
