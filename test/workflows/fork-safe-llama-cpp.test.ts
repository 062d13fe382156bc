import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { makeGitRepository } from "../support/git/make-git-repository.js";
import { makeTempDir } from "../support/make-temp-dir.js";

/*
 * examples/workflows/speedgate-fork-safe-llama-cpp.yml builds the baseline from the runner's checkout,
 * so it moves that checkout to the base before the action reads the round config and the Dockerfile.
 * Its "move to the base" step is run here, as the runner would run it, in a clone made as
 * actions/checkout makes one (every branch under refs/remotes/origin/): a base on one of the
 * repository's branches is checked out; a commit only a pull request has, or anything but a full SHA,
 * stops the job before the action runs.
 */

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../", import.meta.url));
const WORKFLOW = join(root, "examples", "workflows", "speedgate-fork-safe-llama-cpp.yml");

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}

async function readSteps(): Promise<Step[]> {
  const workflow = parse(await readFile(WORKFLOW, "utf8")) as { jobs: Record<string, { steps: Step[] }> };
  return Object.values(workflow.jobs).flatMap((job) => job.steps);
}

/** The origin: main with two commits, a release branch, and a pull request's head that no branch has. */
async function makeOrigin(): Promise<{ dir: string; oldMain: string; release: string; pullHead: string }> {
  const origin = await makeGitRepository("speedgate-origin-");
  const oldMain = await origin.commit("base", { "round.yaml": "engine: llama-cpp\n" });
  await origin.git("checkout", "--quiet", "-b", "release");
  const release = await origin.commit("release fix", { "fix.c": "int x;\n" });
  await origin.git("checkout", "--quiet", "main");
  await origin.commit("main moves on", { "later.c": "int y;\n" });
  await origin.git("checkout", "--quiet", "-b", "topic");
  const pullHead = await origin.commit("the pull request's own round config", { "round.yaml": "engine: llama-cpp\n# the author's\n" });
  await origin.git("update-ref", "refs/pull/7/head", pullHead);
  await origin.git("checkout", "--quiet", "main");
  await origin.git("branch", "--quiet", "-D", "topic");
  return { dir: origin.dir, oldMain, release, pullHead };
}

/** A clone as actions/checkout leaves it with fetch-depth 0, plus the pull request's objects (a fetched head brings them). */
async function cloneAsCheckout(origin: string): Promise<string> {
  const dir = join(await makeTempDir("speedgate-checkout-"), "work");
  await run("git", ["clone", "--quiet", "--no-local", origin, dir]);
  await run("git", ["-C", dir, "fetch", "--quiet", "origin", "+refs/pull/7/head:refs/pull/7/head"]);
  return dir;
}

async function moveToBase(dir: string, base: string): Promise<{ code: number; output: string; head: string }> {
  const step = (await readSteps()).find((one) => one.name?.startsWith("Move to the base"));
  if (!step?.run) throw new Error("the workflow has no 'Move to the base' step");
  expect(step.env).toEqual({ BASE: "${{ inputs.base }}" });
  let code = 0;
  let output = "";
  try {
    const result = await run("bash", ["-e", "-c", step.run], { cwd: dir, env: { ...process.env, BASE: base } });
    output = result.stdout + result.stderr;
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    code = failed.code ?? 1;
    output = (failed.stdout ?? "") + (failed.stderr ?? "");
  }
  const { stdout: head } = await run("git", ["-C", dir, "rev-parse", "HEAD"]);
  return { code, output, head: head.trim() };
}

describe("the llama.cpp fork-safe workflow's move to the base", () => {
  it("checks out a base on main's history or on another of the repository's branches", async () => {
    const origin = await makeOrigin();
    for (const base of [origin.oldMain, origin.release]) {
      const dir = await cloneAsCheckout(origin.dir);
      const moved = await moveToBase(dir, base);
      expect(moved).toMatchObject({ code: 0, head: base });
    }
  });

  it("refuses a commit only the pull request has, and anything but a full SHA, leaving the default branch checked out", async () => {
    const origin = await makeOrigin();
    const dir = await cloneAsCheckout(origin.dir);
    const { stdout: main } = await run("git", ["-C", dir, "rev-parse", "HEAD"]);
    const refused = await moveToBase(dir, origin.pullHead);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain(`::error::the base ${origin.pullHead} is on none of this repository's branches`);
    expect(refused.head).toBe(main.trim());
    for (const base of ["main", origin.oldMain.slice(0, 12), `${origin.oldMain} `, "$(touch pwned)"]) {
      const notSha = await moveToBase(dir, base);
      expect(notSha.code).toBe(1);
      expect(notSha.output).toContain("::error::inputs.base must be a full commit SHA");
      expect(notSha.head).toBe(main.trim());
    }
  });

  it("moves before the action reads the round config, and the action scores that same base", async () => {
    const steps = await readSteps();
    const move = steps.findIndex((step) => step.name?.startsWith("Move to the base"));
    const action = steps.findIndex((step) => /\/speedgate@/.test(step.uses ?? ""));
    expect(move).toBeGreaterThan(0);
    expect(action).toBeGreaterThan(move);
    expect(steps[action]?.with?.["base-sha"]).toBe("${{ inputs.base }}");
  });
});
