import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { APPLY_PATCH_SCRIPT, PATCH_EXIT } from "../../src/docker/apply-patch-script.js";
import { createOverlayContext } from "../../src/docker/overlay-build-context.js";

function listArchive(archive: Buffer): string[] {
  return execFileSync("tar", ["-tv"], { input: archive }).toString().trim().split("\n");
}

describe("createOverlayContext", () => {
  it("builds FROM the baseline image ID, copies the patch in, applies it, then runs postPatch in the source folder", () => {
    const context = createOverlayContext({
      baseImageId: "sha256:abc",
      patch: Buffer.from("--- a/x\n+++ b/x\n"),
      sourceDir: "/sgl-workspace/sglang",
      postPatch: [["make", "kernels"]],
      labels: { "speedgate.run-id": "r1", "speedgate.role": "candidate" },
    });
    expect(context.dockerfile).toBe(
      [
        "FROM sha256:abc",
        "COPY candidate.patch apply-patch.sh /speedgate/",
        'RUN ["/bin/sh","/speedgate/apply-patch.sh","/sgl-workspace/sglang"]',
        'RUN ["/bin/sh","-c","cd \\"$0\\" && exec \\"$@\\"","/sgl-workspace/sglang","make","kernels"]',
        'LABEL "speedgate.run-id"="r1" "speedgate.role"="candidate"',
        "",
      ].join("\n"),
    );
    expect(context.patchStep).toBe(3);
    const listing = listArchive(context.archive);
    expect(listing.map((line) => line.split(/\s+/).pop())).toEqual(["Dockerfile", "candidate.patch", "apply-patch.sh"]);
    expect(listing[2]).toMatch(/^-rwxr-xr-x/);
  });

  it("has no patch step when only postPatch commands are given", () => {
    const context = createOverlayContext({ baseImageId: "sha256:abc", patch: null, sourceDir: null, postPatch: [["true"]], labels: {} });
    expect(context.dockerfile).toBe('FROM sha256:abc\nRUN ["true"]\n');
    expect(context.patchStep).toBeNull();
  });
});

describe("the apply-patch script", () => {
  function runScript(patch: string, options: { pathDirs?: string } = {}): { status: number; output: string; file: string } {
    const dir = mkdtempSync(join(tmpdir(), "speedgate-apply-"));
    try {
      const source = join(dir, "src");
      execFileSync("mkdir", ["-p", source]);
      writeFileSync(join(source, "f.txt"), "one\ntwo\nthree\n");
      const script = APPLY_PATCH_SCRIPT.replaceAll("/speedgate/candidate.patch", join(dir, "p.patch"));
      writeFileSync(join(dir, "apply.sh"), script);
      writeFileSync(join(dir, "p.patch"), patch);
      let status = 0;
      let output = "";
      try {
        output = execFileSync("/bin/sh", [join(dir, "apply.sh"), source], {
          env: { PATH: options.pathDirs ?? "/usr/bin:/bin" },
          stdio: ["ignore", "pipe", "pipe"],
        }).toString();
      } catch (error) {
        const failed = error as { status: number; stdout: Buffer };
        status = failed.status;
        output = failed.stdout.toString();
      }
      return { status, output, file: readFileSync(join(source, "f.txt"), "utf8") };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  const good = "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n";
  const bad = "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n one\n-zwei\n+ZWEI\n three\n";

  it("applies a patch that fits", () => {
    const result = runScript(good);
    expect(result.status).toBe(0);
    expect(result.file).toBe("one\nTWO\nthree\n");
    expect(result.output).toContain("speedgate-patch: applied");
  });

  it("exits with its conflict code and prints the rejected hunk between markers", () => {
    const result = runScript(bad);
    expect(result.status).toBe(PATCH_EXIT.conflict);
    const lines = result.output.split("\n");
    const begin = lines.indexOf("speedgate-patch: rejected-begin");
    const end = lines.indexOf("speedgate-patch: rejected-end");
    expect(begin).toBeGreaterThanOrEqual(0);
    expect(lines.slice(begin, end).join("\n")).toContain("speedgate-patch: | -zwei");
  });

  it("says so when the image has neither git nor patch", () => {
    const bin = mkdtempSync(join(tmpdir(), "speedgate-nobin-"));
    try {
      for (const tool of ["cat", "sed", "find", "rm", "grep"]) execFileSync("ln", ["-s", `/bin/${tool}`, join(bin, tool)]);
      const result = runScript(good, { pathDirs: bin });
      expect(result.status).toBe(PATCH_EXIT.toolMissing);
      expect(result.output).toContain("neither git nor patch");
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });
});
