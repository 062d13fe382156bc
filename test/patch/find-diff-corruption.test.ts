import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { findDiffCorruption } from "../../src/patch/find-diff-corruption.js";
import { sampleDiff } from "./sample-diff.js";

const lines = (...parts: string[]): string => `${parts.join("\n")}\n`;
const header = ["diff --git a/x.py b/x.py", "--- a/x.py", "+++ b/x.py"];

describe("findDiffCorruption", () => {
  it("passes what git and GitHub write: renames, deletions, mode changes, several hunks, no newline at the end", async () => {
    expect(findDiffCorruption(sampleDiff)).toBeNull();
    expect(findDiffCorruption(await readFile(new URL("../../examples/demo/faster.patch", import.meta.url), "utf8"))).toBeNull();
    expect(
      findDiffCorruption(
        lines(
          ...header,
          "@@ -1,2 +1,2 @@",
          " a",
          "-b",
          "\\ No newline at end of file",
          "+c",
          "\\ No newline at end of file",
          "@@ -10 +10,2 @@",
          "-x",
          "+y",
          "+z",
        ),
      ),
    ).toBeNull();
  });

  it("passes a context line whose leading space an editor stripped, and a format-patch mail around the diff", () => {
    expect(findDiffCorruption(lines(...header, "@@ -1,3 +1,3 @@", " a", "", "-b", "+c"))).toBeNull();
    expect(
      findDiffCorruption(
        lines(
          "From 1234 Mon Sep 17 00:00:00 2001",
          "Subject: [PATCH] faster",
          "",
          "---",
          " x.py | 2 +-",
          "",
          ...header,
          "@@ -1 +1 @@",
          "-a",
          "+b",
          "-- ",
          "2.39.0",
        ),
      ),
    ).toBeNull();
    expect(findDiffCorruption(lines(...header, "@@ -1 +1 @@", "-a", "+b").replaceAll("\n", "\r\n"))).toBeNull();
  });

  it.each([
    [
      "a hunk cut short",
      lines(...header, "@@ -1,3 +1,3 @@", " a", "-b"),
      "the hunk at line 4 is cut short: 1 old and 2 new lines its header counts are missing at the end of the patch",
    ],
    [
      "a line that is no hunk line",
      lines(...header, "@@ -1,2 +1,2 @@", " a", "b", "+c"),
      'line 6: expected a line of the hunk at line 4 (starting with a space, "+" or "-"; 1 old and 1 new lines still to come), got "b"',
    ],
    [
      "more lines than the header counts",
      lines(...header, "@@ -1 +1 @@", "-a", "+b", "+c"),
      "line 7: a hunk line after the hunk at line 4 ended (its header counts fewer lines than it holds)",
    ],
    [
      "too many old lines",
      lines(...header, "@@ -1,1 +1,2 @@", "-a", "-b"),
      "line 6: the hunk at line 4 has more old (context and -) lines than its header counts",
    ],
    [
      "a hunk before any file header",
      lines("@@ -1 +1 @@", "-a", "+b"),
      'line 1: a hunk without a file header before it (the "--- a/file" and "+++ b/file" lines)',
    ],
    [
      "a mangled hunk header",
      lines(...header, "@@ -1,x +1 @@", "-a"),
      'line 4: expected a hunk header such as "@@ -12,7 +12,8 @@", got "@@ -1,x +1 @@"',
    ],
  ])("finds %s and names its line", (_name, text, problem) => {
    expect(findDiffCorruption(text)).toBe(problem);
  });
});
