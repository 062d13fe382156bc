import { describe, expect, it } from "vitest";
import { createPathFilter, globToRegExp } from "../../src/patch/glob-to-regexp.js";

describe("globToRegExp", () => {
  it.each([
    ["python/**", "python/sglang/srt/server.py", true],
    ["python/**", "docs/index.md", false],
    ["python/**/*.py", "python/a.py", true],
    ["python/**/*.py", "python/a/b/c.py", true],
    ["python/*.py", "python/a/b.py", false],
    ["*.cu", "csrc/kernels/attn.cu", true],
    ["*.cu", "csrc/kernels/attn.cuh", false],
    ["src/{a,b}/x.ts", "src/b/x.ts", true],
    ["src/{a,b}/x.ts", "src/c/x.ts", false],
    ["file?.txt", "file1.txt", true],
    ["file?.txt", "file/.txt", false],
    ["a.b", "axb", false],
  ])("%s on %s is %s", (pattern, path, expected) => {
    expect(globToRegExp(pattern).test(path)).toBe(expected);
  });
});

describe("createPathFilter", () => {
  it("keeps what some pattern matches and no exclusion does", () => {
    const keep = createPathFilter(["python/**", "!python/**/test_*.py"]);
    expect(keep("python/sglang/a.py")).toBe(true);
    expect(keep("python/sglang/test_a.py")).toBe(false);
    expect(keep("README.md")).toBe(false);
  });

  it("keeps everything not excluded when there are only exclusions", () => {
    const keep = createPathFilter(["!docs/**"]);
    expect(keep("src/a.py")).toBe(true);
    expect(keep("docs/a.md")).toBe(false);
  });
});
