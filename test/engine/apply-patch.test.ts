import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { applyPatch, describePatchFailure } from "../../src/engine/apply-patch.js";
import { EngineFailureError } from "../../src/vocabulary/engine-failure.js";
import { makeTempDir } from "../support/make-temp-dir.js";

const PATCH = [
  "diff --git a/pkg/sched.py b/pkg/sched.py",
  "--- a/pkg/sched.py",
  "+++ b/pkg/sched.py",
  "@@ -1,3 +1,3 @@",
  " a = 1",
  "-b = 2",
  "+b = 3",
  " c = 4",
  "@@ -10,3 +10,3 @@",
  " x = 1",
  "-y = 2",
  "+y = 5",
  " z = 3",
  "",
].join("\n");

async function tree(sched: string) {
  const dir = await makeTempDir("speedgate-patch-");
  await mkdir(join(dir, "src", "pkg"), { recursive: true });
  await writeFile(join(dir, "src", "pkg", "sched.py"), sched);
  await writeFile(join(dir, "change.patch"), PATCH);
  return { src: join(dir, "src"), patchPath: join(dir, "change.patch") };
}

const lines = (...values: string[]) => `${values.join("\n")}\n`;
const original = lines("a = 1", "b = 2", "c = 4", "d", "e", "f", "g", "h", "i", "x = 1", "y = 2", "z = 3");

describe("applyPatch", () => {
  it("applies a patch for real", async () => {
    const { src, patchPath } = await tree(original);
    const { tool } = await applyPatch({ dir: src, patchPath, patchText: PATCH, role: "candidate", signal: new AbortController().signal });
    expect(tool).toBe("git");
    const patched = await readFile(join(src, "pkg", "sched.py"), "utf8");
    expect(patched).toContain("b = 3");
    expect(patched).toContain("y = 5");
  });

  it("names the file and the hunk that does not apply, and leaves the tree as it was", async () => {
    const drifted = original.replace("y = 2", "y = 20");
    const { src, patchPath } = await tree(drifted);
    const error = await applyPatch({
      dir: src,
      patchPath,
      patchText: PATCH,
      role: "candidate",
      signal: new AbortController().signal,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EngineFailureError);
    const failure = (error as EngineFailureError).failure;
    expect(failure).toMatchObject({ stage: "patch", kind: "patch_conflict", summary: "pkg/sched.py: hunk #2 (at line 10) does not apply" });
    expect(failure.logTail.join("\n")).toContain("patch failed: pkg/sched.py:10");
    expect(await readFile(join(src, "pkg", "sched.py"), "utf8")).toBe(drifted);
  });

  it("reads GNU patch's words too", () => {
    const output = "checking file pkg/sched.py\nHunk #2 FAILED at 10.\n1 out of 2 hunks FAILED\n";
    expect(describePatchFailure(output, PATCH)).toBe("pkg/sched.py: hunk #2 (at line 10) does not apply");
    expect(describePatchFailure("error: pkg/gone.py: No such file or directory\n", PATCH)).toBe(
      "pkg/gone.py: the file the patch changes does not exist in the source",
    );
  });
});
