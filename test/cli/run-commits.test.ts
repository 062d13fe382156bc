import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { roundRecordsDir } from "../../src/engine/record-round-leftovers.js";
import { addWorktree } from "../../src/git/git-worktree.js";
import { readScorecard } from "../../src/scorecard/read-scorecard.js";
import { type GitRepository, makeGitRepository } from "../support/git/make-git-repository.js";
import { makeTempDir } from "../support/make-temp-dir.js";
import { engineProfile, writeCommitsRound } from "../support/write-commits-round.js";
import { type SimRoundOptions, simEngineCommand } from "../../harness/sim-engine/write-sim-round.js";
import { runCli } from "./support/sim-round.js";

/**
 * `speedgate run --base --head` with runtime: process: each engine runs from a worktree of its commit
 * in a real git repository, whatever the clone has checked out.
 */
describe("speedgate run --base --head with runtime: process", () => {
  let repo: GitRepository;
  const c = { old: "", base: "", head: "", movedBase: "", side: "" };
  let configDir = "";

  beforeAll(async () => {
    repo = await makeGitRepository();
    // The engine as it was: a first token after 3 s (a sleeping engine is never faster than its profile). Seconds,
    // not 600 ms against a bar of 400 ms: a round's six requests are in flight together, so a stall of the test
    // process of 400 ms would have put the base's 5 ms first tokens over that bar. No round runs this engine.
    c.old = await repo.commit("the engine as released", { "engine/profile.json": engineProfile(3000) });
    c.base = await repo.commit("main: a much faster first token", { "engine/profile.json": engineProfile(5) });
    await repo.git("checkout", "--quiet", "-b", "pr", c.base);
    c.head = await repo.commit("pull request: faster tokens", { "engine/profile.json": engineProfile(5, 0.5) });
    // main moves on after the pull request branched off, in another file.
    await repo.git("checkout", "--quiet", "main");
    c.movedBase = await repo.commit("main: documentation", { "docs/notes.md": "notes\n" });
    await repo.git("checkout", "--quiet", "-b", "side", c.old);
    c.side = await repo.commit("a branch with another engine", { "engine/profile.json": engineProfile(3000, 2) });
    // The clone's own checkout is the old, slow engine: nothing of it may leak into either engine.
    await repo.git("checkout", "--quiet", "--detach", c.old);
    configDir = await makeTempDir("speedgate-commits-round-");
  });

  /** `extra`: top-level fields over the round's (another baseline, a Docker runtime for a plan). */
  const writeConfig = async (extra: SimRoundOptions["extra"] = {}): Promise<string> => await writeCommitsRound(configDir, { extra });

  async function worktrees(): Promise<string[]> {
    return (await repo.git("worktree", "list", "--porcelain")).split("\n").filter((line) => line.startsWith("worktree "));
  }

  it("scores the head against the base, each from its own worktree, and removes both worktrees after", async () => {
    const configPath = await writeConfig();
    const out = await makeTempDir("speedgate-commits-out-");
    const { code, logger } = await runCli([
      "run",
      "--config",
      configPath,
      "--out",
      out,
      "--base",
      c.base,
      "--head",
      c.head,
      "--repo",
      repo.dir,
    ]);
    expect(code, logger.lines.map((line) => line.message).join("\n")).toBe(0);
    const card = await readScorecard(join(out, "scorecard.json"));
    expect(card.failure).toBeNull();
    expect(card.promptsScored).toBe(6);
    expect(card.commits).toMatchObject({ base: c.base, head: c.head, mergeBase: c.base, image: null, imageRevision: null });
    expect(card.commits?.baseline).toMatchObject({ commit: c.base, overlayFiles: null, cache: null, build: { ran: false } });
    // The checkout is the 3 s engine; the base's answers its first token after 5 ms.
    expect(card.metrics?.baseline.ttftMs.median).toBeLessThan(1500);
    expect(card.metrics?.candidate.ttftMs.median).toBeLessThan(1500);
    expect(await worktrees()).toHaveLength(1);
    // The round cleaned up after itself: no record of leftovers for a later sweep.
    expect(readdirSync(await roundRecordsDir(repo.dir))).toEqual([]);
    expect(await repo.git("rev-parse", "HEAD")).toBe(c.old);
  });

  it(
    "is what makes the pull request score at all: as a patch against the " + "clone's checkout (the engine as released) it does not apply",
    async () => {
      const diffPath = join(configDir, "pull-request.patch");
      await writeFile(diffPath, `${await repo.git("diff", c.base, c.head)}\n`);
      const configPath = await writeConfig({
        baseline: { command: simEngineCommand("--profile", "profile.json"), cwd: join(repo.dir, "engine") },
        candidate: { sourceDir: join(repo.dir, "engine") },
      });
      const out = await makeTempDir("speedgate-commits-out-");
      const { code } = await runCli(["run", "--config", configPath, "--out", out, "--patch", diffPath]);
      expect(code).toBe(0);
      const card = await readScorecard(join(out, "scorecard.json"));
      expect(card.failure).toMatchObject({ engine: "candidate", stage: "patch", kind: "patch_conflict" });
    },
  );

  it("applies a pull request that is behind its base onto the base, so only the pull request differs", async () => {
    const configPath = await writeConfig();
    const out = await makeTempDir("speedgate-commits-out-");
    const { code, logger } = await runCli([
      "run",
      "--config",
      configPath,
      "--out",
      out,
      "--base",
      c.movedBase,
      "--head",
      c.head,
      "--repo",
      repo.dir,
    ]);
    expect(code, logger.lines.map((line) => line.message).join("\n")).toBe(0);
    const card = await readScorecard(join(out, "scorecard.json"));
    expect(card.failure).toBeNull();
    expect(card.commits).toMatchObject({ base: c.movedBase, head: c.head, mergeBase: c.base });
    expect(card.commits?.candidate).toMatchObject({ overlayFiles: 1, overlayPaths: ["engine/profile.json"] });
    expect(await worktrees()).toHaveLength(1);
  });

  it("first removes the worktrees a killed round left in the repository", async () => {
    // What a round SIGKILLed mid-benchmark leaves: a worktree registered and on disk, and its record.
    const left = join(await makeTempDir("speedgate-killed-round-"), "baseline");
    await addWorktree(repo.dir, left, c.base);
    const records = await roundRecordsDir(repo.dir);
    await mkdir(records, { recursive: true });
    const exited = spawn("true");
    await new Promise((resolve) => exited.once("exit", resolve));
    await writeFile(
      join(records, "killed.json"),
      JSON.stringify({
        version: 1,
        runId: "killed",
        pid: exited.pid,
        pidStart: null,
        host: hostname(),
        tempRoot: null,
        worktrees: [left],
        processGroups: [],
      }),
    );
    expect(await worktrees()).toHaveLength(2);
    const { code, logger } = await runCli([
      "run",
      "--config",
      await writeConfig(),
      "--out",
      await makeTempDir("speedgate-commits-out-"),
      "--base",
      c.base,
      "--head",
      c.head,
      "--repo",
      repo.dir,
    ]);
    expect(code, logger.lines.map((line) => line.message).join("\n")).toBe(0);
    expect(logger.lines.map((line) => line.message).join("\n")).toContain("left rounds: removed what run killed");
    expect(await worktrees()).toHaveLength(1);
    expect(readdirSync(records)).toEqual([]);
  });

  it("refuses a patch with --base, and a revision the repository does not have, before anything starts", async () => {
    const configPath = await writeConfig();
    const out = await makeTempDir("speedgate-commits-out-");
    const both = await runCli(["run", "--config", configPath, "--out", out, "--base", c.base, "--patch", join(configDir, "x.patch")]);
    expect(both.code).toBe(2);
    expect(both.logger.lines.map((line) => line.message).join("\n")).toContain("--patch and --base");
    const unknown = await runCli([
      "run",
      "--config",
      configPath,
      "--out",
      out,
      "--base",
      "0123456789abcdef0123456789abcdef01234567",
      "--head",
      c.head,
      "--repo",
      repo.dir,
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.logger.lines.map((line) => line.message).join("\n")).toContain("--base: expected a commit of the repository");
    const unrelated = await runCli(["run", "--config", configPath, "--out", out, "--base", c.base, "--head", c.head, "--repo", configDir]);
    expect(unrelated.code).toBe(2);
    expect(unrelated.logger.lines.map((line) => line.message).join("\n")).toContain("is not in one");
  });

  it("gives a patch_conflict card blaming the pull request when it conflicts with its moved base", async () => {
    const configPath = await writeConfig();
    const out = await makeTempDir("speedgate-commits-out-");
    // The side branch changed the same lines as the pull request: merged onto it, the pull request cannot apply.
    const { code } = await runCli(["run", "--config", configPath, "--out", out, "--base", c.side, "--head", c.head, "--repo", repo.dir]);
    expect(code).toBe(0);
    const card = await readScorecard(join(out, "scorecard.json"));
    expect(card.failure).toMatchObject({
      engine: "candidate",
      stage: "patch",
      kind: "patch_conflict",
      label: "the pull request does not apply to its base",
    });
    expect(card.runs.completed).toBe(0);
    expect(await worktrees()).toHaveLength(1);
  });

  it("--check prints the commits, what each overlay changes and whether a build runs, starting nothing", async () => {
    const processConfig = await writeConfig();
    const processPlan = await runCli([
      "run",
      "--config",
      processConfig,
      "--check",
      "--base",
      c.movedBase,
      "--head",
      c.head,
      "--repo",
      repo.dir,
    ]);
    expect(processPlan.code).toBe(0);
    expect(processPlan.stdout).toContain(`base ${c.movedBase.slice(0, 12)} (${c.movedBase}), head ${c.head.slice(0, 12)} (${c.head})`);
    expect(processPlan.stdout).toContain(`the head branched off at ${c.base.slice(0, 12)}`);
    expect(processPlan.stdout).toContain("each engine runs in a git worktree of its commit, in engine");
    expect(processPlan.stdout).toContain("the pull request changes 1 file (engine/profile.json)");

    // An image whose commit the config names (no Docker needed to read it): the old engine, two commits behind the base.
    const dockerConfig = await writeConfig({
      runtime: "docker",
      baseline: { image: "example/engine:nightly", command: ["serve", "--port", "{port}"] },
      candidate: { sourceDir: "/opt/engine" },
      source: { revision: { commit: c.old.slice(0, 10) }, compiledPaths: ["kernel/**"], build: [["make"]] },
    });
    const dockerPlan = await runCli([
      "run",
      "--config",
      dockerConfig,
      "--check",
      "--base",
      c.movedBase,
      "--head",
      c.head,
      "--repo",
      repo.dir,
    ]);
    expect(dockerPlan.code).toBe(0);
    expect(dockerPlan.stdout).toContain(
      `engine image example/engine:nightly at ${c.old.slice(0, 12)} (source.revision.commit), its source in /opt/engine`,
    );
    expect(dockerPlan.stdout).toContain(
      "baseline overlay (image's commit to the base): 2 files (docs/notes.md, engine/profile.json); the result is cached for every " +
        "pull request on this base",
    );
    expect(dockerPlan.stdout).toContain("candidate overlay (the pull request): 1 file (engine/profile.json)");
    expect(dockerPlan.stdout).toContain("build (source.build): baseline none");
    expect(dockerPlan.stdout).toContain("candidate none (the pull request changes no compiled path)");

    // The shipped SGLang config: the image's commit is its checkout's git HEAD, read when the round runs.
    const sglang = await runCli([
      "run",
      "--config",
      fileURLToPath(new URL("../../examples/rounds/sglang.yaml", import.meta.url)),
      "--check",
      "--base",
      c.base,
      "--head",
      c.head,
      "--repo",
      repo.dir,
    ]);
    expect(sglang.code).toBe(0);
    expect(sglang.stdout).toContain(
      "engine image lmsysorg/sglang:dev, its source in /sgl-workspace/sglang; its commit: read from file " +
        "/sgl-workspace/sglang/.git/HEAD in the image when the round runs",
    );
    expect(sglang.stdout).toContain("the engine image lmsysorg/sglang:dev with its source (/sgl-workspace/sglang) brought to the base");

    // An image newer than the base (main, after the pull request's base) cannot be brought back to it.
    const behind = await writeConfig({
      runtime: "docker",
      baseline: { image: "example/engine:nightly", command: ["serve", "--port", "{port}"] },
      candidate: { sourceDir: "/opt/engine" },
      source: { revision: { commit: c.movedBase } },
    });
    const mismatch = await runCli(["run", "--config", behind, "--check", "--base", c.base, "--head", c.head, "--repo", repo.dir]);
    expect(mismatch.code).toBe(0);
    expect(mismatch.stdout).toContain("the image's commit is not an ancestor of the base: the round would end with image_base_mismatch");
  });
});
