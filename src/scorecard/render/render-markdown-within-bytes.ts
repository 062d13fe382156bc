import { utf8Length } from "./fit-utf8-bytes.js";
import { MAX_CARD_CHARS, renderMarkdown } from "./render-markdown.js";
import type { Scorecard } from "../scorecard-schema.js";

/**
 * The card rendered to fit `maxBytes` of UTF-8, for GitHub's check summary: renderMarkdown fits a
 * character budget, so the budget shrinks by the card's own bytes per character until the card
 * fits, leaving out prompt rows and log lines the way it does for characters rather than cutting
 * the text mid-table. `rendered` is the full-budget card when the caller already has it.
 */
export function renderMarkdownWithinBytes(card: Scorecard, maxBytes: number, rendered: string = renderMarkdown(card)): string {
  let text = rendered;
  let maxChars = Math.min(MAX_CARD_CHARS, text.length);
  for (let attempt = 0; attempt < 8; attempt++) {
    const bytes = utf8Length(text);
    if (bytes <= maxBytes) return text;
    maxChars = Math.max(1_000, Math.floor((maxChars * maxBytes * 0.97) / bytes));
    text = renderMarkdown(card, { maxChars });
  }
  return text;
}
