import { ZERO_WIDTH_SPACE } from "./escape-engine-text.js";

/**
 * Engine text for a surface without Markdown (the card for a terminal, which a workflow's job log
 * shows; a check run's title; an annotation): a zero-width space after the `:` of every `://`, inside
 * `www.` and after an `@` before a letter or digit, so that no terminal, log viewer or mail client
 * finds a URL, a host or an e-mail address to link. A code span would show its backticks there; the
 * text reads as it was, and a link copied from it does not open until it is typed again.
 */
export function delinkPlainText(text: string): string {
  return text
    .replace(/:\/\//g, `:${ZERO_WIDTH_SPACE}//`)
    .replace(/\b(www)\./gi, `$1${ZERO_WIDTH_SPACE}.`)
    .replace(/@(?=[\p{L}\p{N}])/gu, `@${ZERO_WIDTH_SPACE}`);
}
