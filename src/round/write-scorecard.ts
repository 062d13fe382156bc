import { mkdir, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { renderMarkdown } from "../scorecard/render/render-markdown.js";
import type { Scorecard } from "../scorecard/scorecard-schema.js";

export async function writeAtomically(path: string, text: string): Promise<void> {
  // Readers (the action's upload, a watching app) see the old file or the whole new one, never half.
  const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temporary, text, "utf8");
  await rename(temporary, path);
}

/** Writes scorecard.json (the contract) and scorecard.md (the comment) side by side. */
export async function writeScorecard(outDir: string, card: Scorecard): Promise<{ jsonPath: string; markdownPath: string }> {
  await mkdir(outDir, { recursive: true });
  const jsonPath = join(outDir, "scorecard.json");
  const markdownPath = join(outDir, "scorecard.md");
  await writeAtomically(jsonPath, `${JSON.stringify(card, null, 2)}\n`);
  await writeAtomically(markdownPath, renderMarkdown(card));
  return { jsonPath, markdownPath };
}
