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

/** The paths one file section touches: before and after, which differ for a rename. */
function sectionPaths(section: string): string[] {
  const paths = new Set<string>();
  // Only the header: a removed line "-- x" inside a hunk also starts with "--- ".
  const hunk = section.indexOf("\n@@");
  const header = hunk === -1 ? section : section.slice(0, hunk);
  for (const line of header.split("\n")) {
    const side = /^(?:---|\+\+\+) (.+)$/.exec(line);
    const path = side?.[1] ? sidePath(side[1]) : null;
    if (path) paths.add(path);
    const rename = /^rename (?:from|to) (.+)$/.exec(line);
    if (rename?.[1]) paths.add(rename[1]);
  }
  if (paths.size === 0) {
    // A mode change or binary file has no ---/+++ lines; the header names the path twice.
    const named = /^diff --git a\/(.+) b\/\1$/.exec(header.split("\n", 1)[0] ?? "");
    if (named?.[1]) paths.add(named[1]);
  }
  return [...paths];
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
    const name = paths.join(" -> ") || section.split("\n", 1)[0] || "(unnamed)";
    if (paths.some(matches)) {
      kept.push(name);
      text += section;
    } else {
      dropped.push(name);
    }
  });
  return { text, kept, dropped };
}
