import { createHash } from "node:crypto";

/*
 * What ties a screenshot in docs/images/ to the example card it shows: its name, and the keywords of
 * the text it carries about itself (scripts/lib/png-text-chunks.ts). `npm run screenshots` writes
 * them, test/scripts/card-screenshots.test.ts reads them back without a browser.
 */

export const SCREENSHOT_KEYS = {
  /** The card's Markdown file, from the repository's root. */
  source: "speedgate:source",
  /** sha256 of that file's bytes when the picture was taken. */
  markdownSha256: "speedgate:markdown-sha256",
  /** "closed" (as a pull request shows the card) or "open" (every <details> open). */
  folds: "speedgate:folds",
  /** The comment's width in CSS pixels, as GitHub shows it. */
  widthPx: "speedgate:width-px",
  /** The height the first screen was measured at. */
  firstScreenPx: "speedgate:first-screen-px",
  /** The text a reader sees in that first screen, whitespace collapsed. */
  firstScreenText: "speedgate:first-screen-text",
  /** The whole comment's height. */
  heightPx: "speedgate:height-px",
} as const;

export function screenshotFile(name: string, folds: "closed" | "open"): string {
  return `card-${name}${folds === "open" ? "-expanded" : ""}.png`;
}

export function markdownSha256(markdown: string | Buffer): string {
  return createHash("sha256").update(markdown).digest("hex");
}

/** Cards also shown with every fold open: the busy runner's, for the GPU state table in Provenance. */
export const EXPANDED_CARDS = ["candidate-cuda-oom-busy-runner"];
