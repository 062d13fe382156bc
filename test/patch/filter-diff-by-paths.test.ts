import { describe, expect, it } from "vitest";
import { filterDiffByPaths } from "../../src/patch/filter-diff-by-paths.js";
import { sampleDiff } from "./sample-diff.js";

describe("filterDiffByPaths", () => {
  it("keeps the sections of matching files, byte for byte", () => {
    const result = filterDiffByPaths(sampleDiff, ["python/**"]);
    expect(result.kept).toEqual(["python/sglang/srt/server.py", "python/old_name.py -> python/new_name.py"]);
    expect(result.dropped).toEqual(["docs/speed.md", "docs/gone.md", "scripts/run.sh"]);
    expect(result.text).toContain("+fast = True");
    expect(result.text).toContain("--- a removed line that looks like a header");
    expect(result.text).toContain("rename to python/new_name.py");
    expect(result.text).not.toContain("docs/");
    const sections = sampleDiff.split(/(?=^diff --git )/m);
    expect(result.text).toBe(`${sections[0]}${sections[2]}`);
  });

  it("names a deleted file and a mode-only change by their paths", () => {
    const result = filterDiffByPaths(sampleDiff, ["docs/gone.md", "scripts/*.sh"]);
    expect(result.kept).toEqual(["docs/gone.md", "scripts/run.sh"]);
  });

  it("ignores hunk lines that look like headers", () => {
    const result = filterDiffByPaths(sampleDiff, ["a"]);
    expect(result.kept).toEqual([]);
  });

  it("decides a rename by its destination: out of the globs is left out, into them is kept", () => {
    const renamed = (from: string, to: string): string =>
      [
        `diff --git a/${from} b/${to}`,
        "similarity index 90%",
        `rename from ${from}`,
        `rename to ${to}`,
        `--- a/${from}`,
        `+++ b/${to}`,
        "@@ -1 +1 @@",
        "-a",
        "+b",
        "",
      ].join("\n");
    // Before: a rename was kept when either side matched, so moving an engine file to docs/ still got it built.
    const out = filterDiffByPaths(renamed("python/engine.py", "docs/engine.py"), ["python/**"]);
    expect(out.kept).toEqual([]);
    expect(out.dropped).toEqual(["python/engine.py -> docs/engine.py"]);
    const into = filterDiffByPaths(renamed("docs/notes.py", "python/notes.py"), ["python/**"]);
    expect(into.kept).toEqual(["docs/notes.py -> python/notes.py"]);
  });

  it("keeps everything for no patterns", () => {
    expect(filterDiffByPaths(sampleDiff, []).text).toBe(sampleDiff);
  });
});
