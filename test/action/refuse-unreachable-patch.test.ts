import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import type { ActionContext } from "../../action/action-context.js";
import type { RunSettings } from "../../action/action-settings.js";
import { refuseUnreachablePatch } from "../../action/refuse-unreachable-patch.js";
import { createRecordingLogger } from "../../src/logger.js";
import { ConfigError } from "../../src/vocabulary/config-error.js";
import { type GitRepository, makeGitRepository } from "../support/git/make-git-repository.js";
import { makeTempDir } from "../support/make-temp-dir.js";
import { writeFenceConfig } from "../../harness/write-fence-config.js";

const run = promisify(execFile);

/*
 * Issue #40: patch mode had no reachability check. A workflow_dispatch whose inputs name no pull
 * request by name (`{number}`, `{sha}`, `{patch_url}`) passed as the repository's own, while its
 * workflow fetched that pull request's patch and handed it to the action, which ran it with
 * runtime: process. Now every commit the inputs name is fetched and must be on one of the branches
 * the remote lists. A real repository with a fork's pull request #5 (refs/pull/5/head, on no branch)
 * and a same-repository pull request #6, cloned as actions/checkout does.
 */

describe("refuseUnreachablePatch", () => {
  let server: GitRepository;
  let clone = "";
  let configDir = "";
  const c = { base: "", branchHead: "", forkHead: "" };

  beforeAll(async () => {
    server = await makeGitRepository();
    c.base = await server.commit("main", { "engine.txt": "v1\n" });
    await server.git("checkout", "--quiet", "-b", "feature");
    c.branchHead = await server.commit("a branch of the repository", { "engine.txt": "v2\n" });
    await server.git("update-ref", "refs/pull/6/head", c.branchHead);
    await server.git("checkout", "--quiet", "-b", "fork-work", c.base);
    c.forkHead = await server.commit("a fork's head", { "engine.txt": "owned\n" });
    await server.git("update-ref", "refs/pull/5/head", c.forkHead);
    await server.git("checkout", "--quiet", "main");
    await server.git("branch", "--quiet", "-D", "fork-work");
    clone = join(await makeTempDir("speedgate-patch-fence-clone-"), "repo");
    await run("git", ["clone", "--quiet", `file://${server.dir}`, clone]);
    configDir = await makeTempDir("speedgate-patch-fence-config-");
  });

  function settings(config: string, repositoryPath: string | null = clone): RunSettings {
    return {
      mode: "run",
      config,
      patch: { kind: "file", path: "/tmp/pull-request.patch" },
      commits: { base: null, head: null, repositoryPath },
      shard: null,
      outDir: "/tmp/out",
      failOnGate: true,
      comment: false,
      githubToken: "",
    };
  }

  function dispatch(inputs: Record<string, unknown>, eventName = "workflow_dispatch"): ActionContext {
    return {
      eventName,
      payload: { inputs },
      repository: { owner: "Octo", repo: "Engine" },
      runId: "1",
      runAttempt: "1",
      serverUrl: "https://github.com",
      sha: null,
      runnerTemp: "/tmp",
      workspace: null,
    };
  }

  const refusal = async (inputs: Record<string, unknown>, repositoryPath: string | null = clone): Promise<unknown> =>
    await refuseUnreachablePatch(
      settings(await writeFenceConfig(configDir, "process.yml", "process"), repositoryPath),
      dispatch(inputs),
      createRecordingLogger(),
    ).catch((caught: unknown) => caught);

  it.each([
    ["{number}", () => ({ number: "5" })],
    ["{number} as a number", () => ({ number: 5 })],
    ["{sha}", () => ({ sha: c.forkHead })],
    ["{head_sha, base_sha}", () => ({ head_sha: c.forkHead, base_sha: c.base })],
    ["{patch_url} of the pull request", () => ({ patch_url: "https://github.com/octo/engine/pull/5.patch" })],
    ["{patch_url} from patch-diff", () => ({ patch_url: "https://patch-diff.githubusercontent.com/raw/Octo/Engine/pull/5.diff" })],
    ["{patch_url} of the commit", () => ({ patch_url: `https://github.com/Octo/Engine/commit/${c.forkHead}.patch` })],
    ["{ref: refs/pull/5/head}", () => ({ ref: "refs/pull/5/head" })],
    ["{pull: #5}", () => ({ pull: "#5" })],
    ["{target: PR-5}", () => ({ target: "PR-5" })],
  ])("refuses a dispatch naming a fork's commit with inputs %s under runtime: process without candidate.trusted", async (_name, inputs) => {
    const error = await refusal(inputs());
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain("runtime: process runs the candidate's code as the runner's own user");
    expect((error as Error).message).toContain("is on none of the repository's branches");
    expect((error as Error).message).toContain("candidate.trusted: true");
  });

  it.each([
    ["a patch from another host", { patch_url: "https://gist.githubusercontent.com/someone/abc/raw/speedup.patch" }, "is on gist"],
    ["another repository's pull request", { patch_url: "https://github.com/fork/engine/pull/5.patch" }, "not a URL of this repository"],
    ["a URL naming no commit", { patch_url: "https://github.com/Octo/Engine/compare/main...fork:engine:speedup.patch" }, "names none"],
    ["a pull request the remote does not have", { ref: "refs/pull/99/head" }, "the remote has no such pull request"],
    ["an abbreviated SHA the clone lacks", { sha: "deadbeef1" }, "an abbreviated SHA cannot be fetched"],
  ])("refuses %s: what cannot be checked is not the repository's own", async (_name, inputs, why) => {
    const error = await refusal(inputs);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(why);
  });

  it("refuses a commit it cannot check where the workspace is no clone", async () => {
    const error = await refusal({ sha: c.forkHead }, await makeTempDir("speedgate-patch-fence-no-clone-"));
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain("is not a clone of it");
  });

  it("lets through commits on the repository's branches, a same-repository pull request, and numbers of no pull request", async () => {
    const config = await writeFenceConfig(configDir, "process.yml", "process");
    for (const inputs of [
      { sha: c.branchHead },
      { number: "6" },
      { patch_url: "https://github.com/Octo/Engine/pull/6.patch" },
      { runs: "4", gpu: "h100", verbose: "true" },
      {},
    ]) {
      const logger = createRecordingLogger();
      await expect(refuseUnreachablePatch(settings(config), dispatch(inputs), logger)).resolves.toBeUndefined();
    }
    const logger = createRecordingLogger();
    await refuseUnreachablePatch(settings(config), dispatch({ number: "6" }), logger);
    expect(logger.lines.map((line) => line.message)).toContain(
      `workflow_dispatch input "number" (pull request #6, whose head is ${c.branchHead}) is on the repository's branch origin/feature: ` +
        "the repository's own code",
    );
  });

  it("lets a fork's commit through with candidate.trusted: true, under runtime: docker, and outside workflow_dispatch", async () => {
    for (const config of [
      await writeFenceConfig(configDir, "trusted.yml", "process", true),
      await writeFenceConfig(configDir, "docker.yml", "docker"),
    ]) {
      await expect(refuseUnreachablePatch(settings(config), dispatch({ number: "5" }), createRecordingLogger())).resolves.toBeUndefined();
    }
    // A push's or a schedule's payload has no inputs: the patch is the repository's own (process-fence-events.test.ts).
    const config = await writeFenceConfig(configDir, "process.yml", "process");
    await expect(
      refuseUnreachablePatch(settings(config), dispatch({ number: "5" }, "push"), createRecordingLogger()),
    ).resolves.toBeUndefined();
  });
});
