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
import { writeFenceConfig } from "./support/write-fence-config.js";

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
  const c = { base: "", branchHead: "", forkHead: "" };

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
    await server.git("checkout", "--quiet", "main");
    await server.git("branch", "--quiet", "-D", "fork-work");
    clone = join(await makeTempDir("speedgate-fence-clone-"), "repo");
    await run("git", ["clone", "--quiet", `file://${server.dir}`, clone]);
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
});
