import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import type { ActionContext } from "../../action/action-context.js";
import type { RunSettings } from "../../action/action-settings.js";
import { refuseUnreachableHead } from "../../action/refuse-unreachable-head.js";
import { createRecordingLogger } from "../../src/logger.js";
import { ConfigError } from "../../src/vocabulary/config-error.js";
import { type GitRepository, makeGitRepository } from "../support/git/make-git-repository.js";
import { makeTempDir } from "../support/make-temp-dir.js";
import { writeFenceConfig } from "../../harness/write-fence-config.js";

const run = promisify(execFile);

/*
 * The dispatch fence read input names: a workflow_dispatch was a pull request's only when an input was
 * named like `pr`, so `{sha, base}`, `{head_sha}`, `{number}` or `{ref: refs/pull/5/head}` passed as the
 * repository's own, and base/head mode fetched a fork's head by its SHA and ran it with runtime: process.
 * Now, once the commits are fetched, a head that none of the repository's branches holds is a pull
 * request's code whatever the event. A real repository, cloned as actions/checkout does, with a fork's
 * head reachable only through refs/pull/5/head on the server.
 */

function context(eventName: string, payload: Record<string, unknown>): ActionContext {
  return {
    eventName,
    payload,
    repository: { owner: "o", repo: "r" },
    runId: "1",
    runAttempt: "1",
    serverUrl: "https://github.com",
    sha: null,
    runnerTemp: "/tmp",
    workspace: null,
  };
}

function settings(config: string): RunSettings {
  return {
    mode: "run",
    config,
    patch: { kind: "config" },
    commits: { base: null, head: null, repositoryPath: null },
    shard: null,
    outDir: "/tmp/out",
    failOnGate: true,
    comment: false,
    githubToken: "",
  };
}

describe("refuseUnreachableHead", () => {
  let server: GitRepository;
  let clone = "";
  let configDir = "";
  const c = { base: "", branchHead: "", forkHead: "", moved: "", movedOn: "" };

  const writeConfig = (name: string, runtime: string, trusted?: boolean): Promise<string> =>
    writeFenceConfig(configDir, name, runtime, trusted);

  beforeAll(async () => {
    server = await makeGitRepository();
    c.base = await server.commit("main", { "engine.txt": "v1\n" });
    await server.git("checkout", "--quiet", "-b", "feature");
    c.branchHead = await server.commit("a branch of the repository", { "engine.txt": "v2\n" });
    // A fork's pull request: GitHub serves its head through refs/pull/5/head, no branch holds it.
    await server.git("checkout", "--quiet", "-b", "fork-work", c.base);
    c.forkHead = await server.commit("a fork's head", { "engine.txt": "owned\n" });
    await server.git("update-ref", "refs/pull/5/head", c.forkHead);
    await server.git("checkout", "--quiet", "-b", "moving", c.base);
    c.moved = await server.commit("a branch that moves on after the checkout", { "engine.txt": "v3\n" });
    await server.git("checkout", "--quiet", "main");
    await server.git("branch", "--quiet", "-D", "fork-work");
    clone = join(await makeTempDir("speedgate-fence-clone-"), "repo");
    await run("git", ["clone", "--quiet", `file://${server.dir}`, clone]);
    // Pushed after the checkout: the clone's origin/moving is one commit behind the remote's branch list.
    await server.git("checkout", "--quiet", "moving");
    c.movedOn = await server.commit("pushed after the checkout", { "engine.txt": "v4\n" });
    await server.git("checkout", "--quiet", "main");
    // What fetchMissingCommits does for a head the checkout lacks: fetch it by its SHA, no ref kept.
    await run("git", ["-C", clone, "fetch", "--quiet", "origin", c.forkHead]);
    configDir = await makeTempDir("speedgate-fence-config-");
  });

  const dispatch = (inputs: Record<string, string>) => context("workflow_dispatch", { inputs });

  it.each([
    ["{sha, base}", { sha: "fork", base: "base" }],
    ["{head_sha}", { head_sha: "fork" }],
    ["{number}", { number: "5" }],
    ["{ref: refs/pull/5/head}", { ref: "refs/pull/5/head" }],
  ])("refuses a fork's head dispatched with inputs %s under runtime: process without candidate.trusted", async (_name, inputs) => {
    const config = await writeConfig("process.yml", "process");
    const error = await refuseUnreachableHead(
      settings(config),
      dispatch(inputs),
      { base: c.base, head: c.forkHead, repoDir: clone },
      createRecordingLogger(),
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(`head ${c.forkHead} is on none of the repository's branches`);
    expect((error as Error).message).toContain("candidate.trusted: true");
  });

  it("refuses it under a push or a schedule too: the event does not decide, the head does", async () => {
    const config = await writeConfig("process.yml", "process");
    for (const event of ["push", "schedule"]) {
      await expect(
        refuseUnreachableHead(
          settings(config),
          context(event, {}),
          { base: c.base, head: c.forkHead, repoDir: clone },
          createRecordingLogger(),
        ),
      ).rejects.toBeInstanceOf(ConfigError);
    }
  });

  it("refuses a head that only a pull request ref under the remote's folder holds", async () => {
    const config = await writeConfig("process.yml", "process");
    await run("git", ["-C", clone, "update-ref", "refs/remotes/origin/pull/5/head", c.forkHead]);
    try {
      await expect(
        refuseUnreachableHead(
          settings(config),
          dispatch({ sha: "x" }),
          { base: c.base, head: c.forkHead, repoDir: clone },
          createRecordingLogger(),
        ),
      ).rejects.toBeInstanceOf(ConfigError);
    } finally {
      await run("git", ["-C", clone, "update-ref", "-d", "refs/remotes/origin/pull/5/head"]);
    }
  });

  it("lets through a head on one of the repository's branches, saying which", async () => {
    const config = await writeConfig("process.yml", "process");
    const logger = createRecordingLogger();
    await expect(
      refuseUnreachableHead(
        settings(config),
        dispatch({ sha: "x", base: "y" }),
        { base: c.base, head: c.branchHead, repoDir: clone },
        logger,
      ),
    ).resolves.toBeUndefined();
    expect(logger.lines.map((line) => line.message)).toContain(
      `The head ${c.branchHead} is on the repository's branch origin/feature: the repository's own code`,
    );
  });

  it("lets a fork's head through with candidate.trusted: true, and under runtime: docker", async () => {
    for (const config of [await writeConfig("trusted.yml", "process", true), await writeConfig("docker.yml", "docker")]) {
      await expect(
        refuseUnreachableHead(
          settings(config),
          dispatch({ sha: "x" }),
          { base: c.base, head: c.forkHead, repoDir: clone },
          createRecordingLogger(),
        ),
      ).resolves.toBeUndefined();
    }
  });

  /*
   * Issue #40: the reachability check counted every ref under refs/remotes/origin/ but pull/*, so a
   * workflow that fetched pull requests' heads with CI's common refspec had a fork's head at
   * origin/pr/5, and it passed as a branch of the repository's own. Now only the branches the
   * remote's branch list names count, at the tips it lists.
   */
  it("refuses a fork's head that the common refspec +refs/pull/*/head:refs/remotes/origin/pr/* fetched to origin/pr/5", async () => {
    const config = await writeConfig("process.yml", "process");
    await run("git", ["-C", clone, "fetch", "--quiet", "origin", "+refs/pull/*/head:refs/remotes/origin/pr/*"]);
    try {
      // The clone holds it under origin/pr/5, which a check of the clone's refs alone took for a branch.
      expect((await run("git", ["-C", clone, "rev-parse", "refs/remotes/origin/pr/5"])).stdout.trim()).toBe(c.forkHead);
      const error = await refuseUnreachableHead(
        settings(config),
        dispatch({ sha: c.forkHead, base: c.base }),
        { base: c.base, head: c.forkHead, repoDir: clone },
        createRecordingLogger(),
      ).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain(`head ${c.forkHead} is on none of the repository's branches`);
    } finally {
      await run("git", ["-C", clone, "update-ref", "-d", "refs/remotes/origin/pr/5"]);
    }
  });

  it("refuses a fork's head written under a branch's own name (origin/feature), which is not the tip the remote lists", async () => {
    const config = await writeConfig("process.yml", "process");
    await run("git", ["-C", clone, "fetch", "--quiet", "origin", "+refs/pull/5/head:refs/remotes/origin/feature"]);
    try {
      await expect(
        refuseUnreachableHead(
          settings(config),
          dispatch({ sha: c.forkHead }),
          { base: c.base, head: c.forkHead, repoDir: clone },
          createRecordingLogger(),
        ),
      ).rejects.toBeInstanceOf(ConfigError);
    } finally {
      await run("git", ["-C", clone, "fetch", "--quiet", "origin", "+refs/heads/feature:refs/remotes/origin/feature"]);
    }
  });

  it("lets through a head on a branch pushed to since the checkout, and the branch's new tip itself", async () => {
    const config = await writeConfig("process.yml", "process");
    for (const head of [c.moved, c.movedOn]) {
      // As base/head mode does: the head is fetched by its SHA before the fence looks at it.
      await run("git", ["-C", clone, "fetch", "--quiet", "origin", head]);
      const logger = createRecordingLogger();
      await expect(
        refuseUnreachableHead(settings(config), dispatch({ sha: head }), { base: c.base, head, repoDir: clone }, logger),
      ).resolves.toBeUndefined();
      expect(logger.lines.map((line) => line.message)).toContain(
        `The head ${head} is on the repository's branch origin/moving: the repository's own code`,
      );
    }
  });

  it("refuses when the remote's branch list cannot be read (offline from the remote), never falling back to the clone's refs", async () => {
    const config = await writeConfig("process.yml", "process");
    const offline = join(await makeTempDir("speedgate-fence-offline-"), "repo");
    await run("git", ["clone", "--quiet", `file://${server.dir}`, offline]);
    await run("git", ["-C", offline, "remote", "set-url", "origin", `file://${server.dir}-gone`]);
    const error = await refuseUnreachableHead(
      settings(config),
      dispatch({ sha: c.branchHead }),
      { base: c.base, head: c.branchHead, repoDir: offline },
      createRecordingLogger(),
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain("the branch list of the remote the checkout cloned, which could not be read");
  });
});
