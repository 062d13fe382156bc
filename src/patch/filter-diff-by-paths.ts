import { createPathFilter } from "./glob-to-regexp.js";

export interface FilteredDiff {
  /** The sections of the files that matched, byte for byte as they were. */
  text: string;
  kept: string[];
  dropped: string[];
}

/**
 * A path from a ---/+++ line. Git quotes paths with unusual characters ("a/caf\303\251.py"); such a
 * path is compared with its escapes as they are.
 */
function sidePath(raw: string): string | null {
  let path = raw.replace(/\t[^"]*$/, "");
  if (path === "/dev/null") return null;
  if (path.length > 1 && path.startsWith('"') && path.endsWith('"')) path = path.slice(1, -1);
  return path.replace(/^[ab]\//, "");
}

interface SectionPaths {
  /** The path before the change; null for an added file. */
  before: string | null;
  /** The path after the change; null for a deleted file. */
  after: string | null;
}

/** The paths one file section touches: before and after, which differ for a rename. */
function sectionPaths(section: string): SectionPaths {
  const found: SectionPaths = { before: null, after: null };
  // Only the header: a removed line "-- x" inside a hunk also starts with "--- ".
  const hunk = section.indexOf("\n@@");
  const header = hunk === -1 ? section : section.slice(0, hunk);
  for (const line of header.split("\n")) {
    const side = /^(---|\+\+\+) (.+)$/.exec(line);
    if (side?.[1] && side[2]) {
      const path = sidePath(side[2]);
      if (side[1] === "---") found.before ??= path;
      else found.after ??= path;
    }
    const rename = /^(?:rename|copy) (from|to) (.+)$/.exec(line);
    if (rename?.[1] === "from" && rename[2]) found.before = rename[2];
    if (rename?.[1] === "to" && rename[2]) found.after = rename[2];
  }
  if (found.before === null && found.after === null) {
    // A mode change or binary file has no ---/+++ lines; the header names the path twice.
    const named = /^diff --git a\/(.+) b\/\1$/.exec(header.split("\n", 1)[0] ?? "");
    if (named?.[1]) return { before: named[1], after: named[1] };
  }
  return found;
}

/**
 * The path a section is judged by: where the file ends up. A rename into the globs is scored; a rename
 * out of them is left out, or an engine file could be moved out of sight (or a file smuggled into
 * the engine under an innocent old name). A deletion is judged by the path it removes.
 */
function decidingPath(paths: SectionPaths): string | null {
  return paths.after ?? paths.before;
}

function describePaths(paths: SectionPaths): string | null {
  if (paths.before !== null && paths.after !== null && paths.before !== paths.after) return `${paths.before} -> ${paths.after}`;
  return paths.after ?? paths.before;
}

/**
 * Keeps the file sections of a git diff whose paths match the globs, so a pull request that also
 * touches docs or CI files is scored on the engine's code only. Text before the first section (a
 * format-patch mail header) is dropped when filtering.
 */
export function filterDiffByPaths(diff: string, patterns: readonly string[]): FilteredDiff {
  const matches = createPathFilter(patterns);
  const starts = [...diff.matchAll(/^diff --git /gm)].map((match) => match.index);
  const kept: string[] = [];
  const dropped: string[] = [];
  let text = "";
  starts.forEach((start, position) => {
    const section = diff.slice(start, starts[position + 1] ?? diff.length);
    const paths = sectionPaths(section);
    const name = describePaths(paths) ?? (section.split("\n", 1)[0] || "(unnamed)");
    const decides = decidingPath(paths);
    if (decides !== null && matches(decides)) {
      kept.push(name);
      text += section;
    } else {
      dropped.push(name);
    }
  });
  return { text, kept, dropped };
}
