import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { parseScorecardJson } from "../../src/scorecard/read-scorecard.js";
import { type GitRepository, makeGitRepository } from "../support/git/make-git-repository.js";
import { makeTempDir } from "../support/make-temp-dir.js";
import { commitsRoundPrompts, engineProfile, writeCommitsRound } from "../support/write-commits-round.js";
import type { SimRoundOptions } from "../../harness/sim-engine/write-sim-round.js";
import { runStep, stageAction } from "./support/action-step.js";
import { pullRequestEvent } from "./support/webhook-payloads.js";

const run = promisify(execFile);

/**
 * The bundled action in base/head mode, as the runner runs it: the pull request's base and head from
 * the event, read from the job's checkout (a shallow clone of the default branch, as actions/checkout
 * makes by default) after fetching what it lacks from its origin.
 */
describe("the action scores a pull request's head against its base (bundled action, runtime: process)", () => {
  let origin: GitRepository;
  const c = { old: "", base: "", head: "", fork: "" };
  let configDir = "";

  beforeAll(async () => {
    await stageAction();
    origin = await makeGitRepository();
    c.old = await origin.commit("the engine as released", { "engine/profile.json": engineProfile(3000) });
    c.base = await origin.commit("main: a much faster first token", { "engine/profile.json": engineProfile(5) });
    await origin.git("checkout", "--quiet", "-b", "pr", c.base);
    c.head = await origin.commit("pull request: faster tokens", { "engine/profile.json": engineProfile(5, 0.5) });
    // A fork's pull request #5: GitHub serves its head at refs/pull/5/head, and no branch holds it.
    await origin.git("checkout", "--quiet", "-b", "fork-work", c.base);
    c.fork = await origin.commit("a fork's pull request", { "engine/profile.json": engineProfile(5, 0.25) });
    await origin.git("update-ref", "refs/pull/5/head", c.fork);
    await origin.git("checkout", "--quiet", "main");
    await origin.git("branch", "--quiet", "-D", "fork-work");
    configDir = await makeTempDir("speedgate-action-commits-");
  });

  /** What actions/checkout leaves by default: the default branch, one commit deep; the pull request's head is not there. */
  async function shallowCheckout(): Promise<string> {
    const dir = join(await makeTempDir("speedgate-action-checkout-"), "repo");
    await run("git", ["clone", "--quiet", "--depth", "1", "--branch", "main", `file://${origin.dir}`, dir]);
    return dir;
  }

  const writeConfig = async (candidate: SimRoundOptions["candidate"] = {}): Promise<string> =>
    await writeCommitsRound(configDir, {
      engine: "sim",
      prompts: { "prompts.jsonl": commitsRoundPrompts(4) },
      health: { intervalMs: 50 },
      candidate,
    });

  /** The action's main step on a fresh shallow checkout, as one job of the workflow. */
  async function runJob(
    event: { name: string; payload: unknown },
    config: string,
    inputs: Record<string, string> = {},
    prepare: (checkout: string) => Promise<void> = async () => {},
  ) {
    const checkout = await shallowCheckout();
    await prepare(checkout);
    const workDir = await makeTempDir("speedgate-action-commits-job-");
    const step = await runStep({
      entry: "index",
      workDir,
      event,
      inputs: { config, "github-token": "", ...inputs },
      env: { GITHUB_WORKSPACE: checkout },
    });
    return { checkout, step };
  }

  function eventFor(base: string, head: string): { name: string; payload: unknown } {
    const payload = structuredClone(pullRequestEvent("opened")) as unknown as {
      pull_request: { base: { sha: string }; head: { sha: string } };
    };
    payload.pull_request.base.sha = base;
    payload.pull_request.head.sha = head;
    return { name: "pull_request", payload };
  }

  it(
    "takes the base and head from a pull_request event, fetches what the " + "shallow checkout lacks, and scores each from its worktree",
    async () => {
      const { checkout, step } = await runJob(eventFor(c.base, c.head), await writeConfig({ trusted: true }), { "fail-on-gate": "false" });
      expect(step.exitCode, `${step.stdout}\n${step.stderr}`).toBe(0);
      const card = parseScorecardJson(await readFile(step.outputs["scorecard-json"] ?? "", "utf8"), "card");
      expect(card.failure).toBeNull();
      expect(card.commits).toMatchObject({ base: c.base, head: c.head, mergeBase: c.base });
      expect(card.source).toMatchObject({ headSha: c.head });
      // The engine as released answers after 3 s, the base's after 5 ms: the baseline ran the base. Seconds, not
      // 600 ms against 400: the four requests are in flight together, and a stall of 400 ms would have crossed that bar.
      expect(card.metrics?.baseline.ttftMs.median).toBeLessThan(1500);
      expect(step.stdout).toContain("is a shallow clone: fetching its full history");
      // Both worktrees are gone; the checkout itself was not moved.
      const worktrees = (await run("git", ["-C", checkout, "worktree", "list"])).stdout.trim().split("\n");
      expect(worktrees).toHaveLength(1);
      expect((await run("git", ["-C", checkout, "rev-parse", "HEAD"])).stdout.trim()).toBe(c.base);
    },
  );

  it(
    "refuses to run a pull request's head commit as a host process (runtime: process) for a dispatched run, before fetching or " +
      "starting anything",
    async () => {
      const { checkout, step } = await runJob(
        { name: "workflow_dispatch", payload: { inputs: { pr: "7", sha: c.head, base: c.base } } },
        await writeConfig(),
      );
      expect(step.exitCode).not.toBe(0);
      expect(step.stdout).toContain("runtime: process runs the candidate's code as the runner's own user");
      expect(step.stdout).toContain("this round's candidate is a pull request's head commit");
      expect(step.outputs["scorecard-json"] ?? "").toBe("");
      // Nothing was fetched: the head the fence refused never reached the runner's clone.
      const has = await run("git", ["-C", checkout, "cat-file", "-e", `${c.head}^{commit}`]).then(
        () => true,
        () => false,
      );
      expect(has).toBe(false);
    },
  );

  it("scores the dispatched head when the round config vouches for its authors (candidate.trusted: true)", async () => {
    const { step } = await runJob(
      { name: "workflow_dispatch", payload: { inputs: { pr: "7", sha: c.head, base: c.base } } },
      await writeConfig({ trusted: true }),
      { "fail-on-gate": "false" },
    );
    expect(step.exitCode, `${step.stdout}\n${step.stderr}`).toBe(0);
    const card = parseScorecardJson(await readFile(step.outputs["scorecard-json"] ?? "", "utf8"), "card");
    expect(card.failure).toBeNull();
    expect(card.commits).toMatchObject({ base: c.base, head: c.head });
    expect(card.source).toMatchObject({ pullRequest: 7, headSha: c.head });
  });

  it(
    "refuses a fork's head dispatched as {sha, base} when the workflow fetched pull requests' heads to origin/pr/* (issue #40), " +
      "starting nothing",
    async () => {
      const { step } = await runJob(
        { name: "workflow_dispatch", payload: { inputs: { sha: c.fork, base: c.base } } },
        await writeConfig(),
        {},
        // A workflow step before the action, with CI's common refspec: the fork's head lands at origin/pr/5.
        async (checkout) => {
          await run("git", ["-C", checkout, "fetch", "--quiet", "origin", "+refs/pull/*/head:refs/remotes/origin/pr/*"]);
        },
      );
      expect(step.exitCode).not.toBe(0);
      expect(step.stdout).toMatch(/^::error::.*runtime: process runs the candidate's code as the runner's own user/m);
      expect(step.stdout).toContain(`this round's head ${c.fork} is on none of the repository's branches`);
      expect(step.outputs["scorecard-json"] ?? "").toBe("");
      // Refused before the round began: no run id was handed out, so no engine was started.
      expect(step.stdout).not.toContain("Run id ");
    },
  );
});
