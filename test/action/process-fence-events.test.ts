import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeGitRepository } from "../support/git/make-git-repository.js";
import { makeTempDir } from "../support/make-temp-dir.js";
import { type StepResult, runStep } from "./support/action-step.js";
import { type ActionRound, writeActionRound } from "./support/write-action-round.js";
import { pullRequestEvent } from "./support/webhook-payloads.js";

/*
 * Issue #24, point 2: the action refused `runtime: process` for untrusted code only when it saw
 * patch-from-pr, a dispatch input named `pr`, or pull_request_target. Under workflow_run (or
 * issue_comment, …) a pull request's patch handed over through `patch:` ran as a process of the
 * runner's user, and its build step could append to the step's GITHUB_ENV, which every later step of
 * the job loads (here: NODE_OPTIONS requiring the attacker's file). Now only push, schedule and a
 * workflow_dispatch naming no pull request run it without candidate.trusted; each event is tried
 * through the bundled action.
 */

const POISON = "NODE_OPTIONS=--require=/tmp/owned-by-the-pull-request.js";
const run = promisify(execFile);

/** The pull request's patch: the engine's build script (run by postPatch) appends to every step's env file it finds. */
function poisonPatch(commandFiles: string): string {
  return [
    "diff --git a/build.sh b/build.sh",
    "--- a/build.sh",
    "+++ b/build.sh",
    "@@ -1 +1,2 @@",
    " true",
    `+for f in '${commandFiles}'/set_env_*; do echo '${POISON}' >> "$f"; done`,
    "",
  ].join("\n");
}

describe("runtime: process without candidate.trusted, event by event (the bundled action)", () => {
  let round: ActionRound;
  let trusted: ActionRound;
  let workDir: string;
  let commandFiles: string;
  let patchPath: string;

  beforeAll(async () => {
    const candidate = { postPatch: [["sh", "build.sh"]] };
    round = await writeActionRound({ prompts: 4, candidate });
    trusted = await writeActionRound({ prompts: 4, candidate: { ...candidate, trusted: true } });
    for (const each of [round, trusted]) await writeFile(join(each.dir, "engine", "build.sh"), "true\n");
    workDir = await makeTempDir("speedgate-fence-");
    // Where the runner keeps a step's file commands (RUNNER_TEMP/_runner_file_commands/set_env_<uuid>).
    commandFiles = join(workDir, "runner-temp", "_runner_file_commands");
    await mkdir(commandFiles, { recursive: true });
    patchPath = join(workDir, "pull-request.patch");
    await writeFile(patchPath, poisonPatch(commandFiles));
  });
  afterAll(async () => {
    await rm(round.dir, { recursive: true, force: true });
    await rm(trusted.dir, { recursive: true, force: true });
    await rm(workDir, { recursive: true, force: true });
  });

  /** Runs the step with a fresh GITHUB_ENV file; returns the step and what the file holds after it. */
  async function stepUnder(
    event: { name: string; payload: unknown },
    config: ActionRound,
    patch: string,
    env: Record<string, string> = {},
  ): Promise<{ step: StepResult; githubEnv: string }> {
    const githubEnv = join(commandFiles, `set_env_${randomUUID()}`);
    await writeFile(githubEnv, "");
    await rm(config.pidFile, { force: true });
    const step = await runStep({
      entry: "index",
      workDir,
      event,
      inputs: { config: config.configPath, patch, "out-dir": join(workDir, "out", randomUUID()), "fail-on-gate": "false" },
      env: { GITHUB_ENV: githubEnv, ...env },
    });
    const written = await readFile(githubEnv, "utf8");
    await rm(githubEnv);
    return { step, githubEnv: written };
  }

  it("refuses a pull request's patch under workflow_run before its build step can write the step's GITHUB_ENV", async () => {
    const { step, githubEnv } = await stepUnder(
      { name: "workflow_run", payload: { action: "completed", workflow_run: { event: "pull_request", head_sha: "a".repeat(40) } } },
      round,
      patchPath,
    );
    expect(githubEnv).toBe("");
    expect(step.exitCode).toBe(1);
    const errors = step.stdout.split("\n").filter((line) => line.startsWith("::error::"));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("runtime: process runs the candidate's code as the runner's own user");
    expect(errors[0]).toContain("the run is a workflow_run event, which can carry a pull request's code");
    expect(errors[0]).toContain("candidate.trusted: true");
    expect(existsSync(round.pidFile)).toBe(false);
  });

  it.each([
    { name: "pull_request", payload: pullRequestEvent("opened") },
    { name: "pull_request_target", payload: pullRequestEvent("opened") },
    { name: "pull_request_review", payload: { action: "submitted", pull_request: { number: 3 } } },
    { name: "issue_comment", payload: { action: "created", issue: { number: 3, pull_request: {} }, comment: { body: "/score" } } },
    { name: "merge_group", payload: { action: "checks_requested" } },
    { name: "check_suite", payload: { action: "requested" } },
    { name: "repository_dispatch", payload: { action: "score", client_payload: {} } },
    { name: "release", payload: { action: "published" } },
    { name: "workflow_dispatch", payload: { inputs: { pr: "17", sha: "c".repeat(40) } } },
  ])("refuses it under $name, starting nothing", async (event) => {
    const { step, githubEnv } = await stepUnder(event, round, patchPath);
    expect(githubEnv).toBe("");
    expect(step.exitCode).toBe(1);
    expect(step.stdout).toMatch(
      /^::error::.*runtime: process runs the candidate's code as the runner's own user.*candidate\.trusted: true/m,
    );
    expect(existsSync(round.pidFile)).toBe(false);
  });

  it.each([
    { name: "push", payload: { ref: "refs/heads/main" } },
    { name: "schedule", payload: { schedule: "0 3 * * *" } },
    { name: "workflow_dispatch", payload: { inputs: {} } },
  ])("runs the repository's own patch under $name", async (event) => {
    const { step } = await stepUnder(event, round, round.patchPath);
    expect(step.stdout).not.toContain("runtime: process runs the candidate's code");
    expect(step.exitCode, step.stdout + step.stderr).toBe(0);
    expect(step.outputs["round-score"]).toBeDefined();
  });

  it(
    "runs it under workflow_run when the config vouches for the authors (candidate.trusted), and then the build step is the authors' " +
      "to trust",
    async () => {
      const { step, githubEnv } = await stepUnder(
        { name: "workflow_run", payload: { action: "completed", workflow_run: { event: "pull_request" } } },
        trusted,
        patchPath,
      );
      expect(step.exitCode, step.stdout + step.stderr).toBe(0);
      // What the refusal above prevents: the patch's build step wrote the env file that later steps load.
      expect(githubEnv).toBe(`${POISON}\n`);
    },
  );

  /*
   * Issue #40: patch mode had no reachability check, so a dispatch whose inputs name a fork's pull
   * request without calling it `pr` passed as the repository's own, and the patch its workflow fetched
   * from that pull request ran on the host. The job's checkout is a real clone of a repository whose
   * pull request #5 is a fork's (refs/pull/5/head, on no branch) and #6 a branch of its own.
   */
  describe("a workflow_dispatch naming a fork's commit in patch mode (a real clone as the job's workspace)", () => {
    let checkout = "";
    const c = { forkHead: "", branchHead: "" };

    beforeAll(async () => {
      const server = await makeGitRepository();
      await server.commit("main", { "engine.txt": "v1\n" });
      await server.git("checkout", "--quiet", "-b", "feature");
      c.branchHead = await server.commit("a branch of the repository", { "engine.txt": "v2\n" });
      await server.git("update-ref", "refs/pull/6/head", c.branchHead);
      await server.git("checkout", "--quiet", "-b", "fork-work", "main");
      c.forkHead = await server.commit("a fork's head", { "engine.txt": "owned\n" });
      await server.git("update-ref", "refs/pull/5/head", c.forkHead);
      await server.git("checkout", "--quiet", "main");
      await server.git("branch", "--quiet", "-D", "fork-work");
      checkout = join(await makeTempDir("speedgate-fence-checkout-"), "repo");
      await run("git", ["clone", "--quiet", `file://${server.dir}`, checkout]);
    });

    it.each([
      ["{number}", () => ({ number: "5" })],
      ["{sha}", () => ({ sha: c.forkHead })],
      ["{patch_url}", () => ({ patch_url: "https://github.com/Codertocat/Hello-World/pull/5.patch" })],
    ])("refuses the pull request's patch dispatched with inputs %s, before its build step runs", async (_name, inputs) => {
      const { step, githubEnv } = await stepUnder({ name: "workflow_dispatch", payload: { inputs: inputs() } }, round, patchPath, {
        GITHUB_WORKSPACE: checkout,
      });
      expect(githubEnv).toBe("");
      expect(step.exitCode).toBe(1);
      expect(step.stdout).toMatch(
        /^::error::.*runtime: process runs the candidate's code as the runner's own user.*is on none of the repository's branches/m,
      );
      expect(existsSync(round.pidFile)).toBe(false);
    });

    it("runs the repository's own patch dispatched for a pull request of its own branch ({number: 6})", async () => {
      const { step } = await stepUnder({ name: "workflow_dispatch", payload: { inputs: { number: "6" } } }, round, round.patchPath, {
        GITHUB_WORKSPACE: checkout,
      });
      expect(step.exitCode, step.stdout + step.stderr).toBe(0);
      expect(step.stdout).toContain('workflow_dispatch input "number" (pull request #6, whose head is');
      expect(step.outputs["round-score"]).toBeDefined();
    });
  });
});
