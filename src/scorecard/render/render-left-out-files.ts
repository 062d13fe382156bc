import { escapeInline } from "../../safe-text/escape-engine-text.js";
import type { Scorecard } from "../scorecard-schema.js";

/** Files named on the card; the rest are counted. Bounded so the section cannot crowd out the card. */
const LISTED = 20;
const PATH_CHARS = 200;

function shorten(path: string): string {
  return path.length <= PATH_CHARS ? path : `…${path.slice(path.length - PATH_CHARS + 1)}`;
}

/**
 * The changed files that the workflow's `patch-paths` left out of the scored patch. They were never
 * built or measured, yet the check is on the whole commit: the card says so where the verdict is read.
 */
export function renderLeftOutFiles(card: Scorecard): string {
  const filter = card.source?.patchFilter;
  if (!filter || filter.leftOutTotal === 0) return "";
  const globs = filter.globs.map(escapeInline).join(", ");
  const listed = filter.leftOut.slice(0, LISTED).map((path) => `- ${escapeInline(shorten(path))}`);
  const more = filter.leftOutTotal - listed.length;
  return [
    `### ⚠️ ${filter.leftOutTotal} changed ${filter.leftOutTotal === 1 ? "file was" : "files were"} not scored`,
    "",
    `The workflow's \`patch-paths\` (${globs}) left ${filter.leftOutTotal === 1 ? "this file" : "these files"} out of the patch: ` +
      "they were not built or measured, and the verdict does not cover them.",
    "",
    ...listed,
    ...(more > 0 ? [`- … and ${more} more`] : []),
  ].join("\n");
}
