import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ActionContext } from "../../action/action-context.js";
import type { PatchSource, RunSettings } from "../../action/action-settings.js";
import { pullRequestPatchOrigin, refuseUntrustedProcessRound } from "../../action/refuse-untrusted-process-round.js";
import { ConfigError } from "../../src/vocabulary/config-error.js";
import { pullRequestEvent } from "./support/webhook-payloads.js";
import { writeFenceConfig } from "../../harness/write-fence-config.js";
import { concatPatterns } from "../support/concat-patterns.js";

function context(eventName: string, payload: Record<string, unknown> = {}): ActionContext {
  return {
    eventName,
    payload,
    repository: { owner: "o", repo: "r" },
    runId: "1",
    runAttempt: "1",
    serverUrl: "https://github.com",
    sha: null,
    runnerTemp: "/tmp",
  };
}

function settings(patch: PatchSource, config = "round.yml"): RunSettings {
  return {
    mode: "run",
    config,
    patch,
    commits: { base: null, head: null, repositoryPath: null },
    shard: null,
    outDir: "/tmp/out",
    failOnGate: true,
    comment: false,
    githubToken: "",
  };
}

describe("pullRequestPatchOrigin", () => {
  const file = settings({ kind: "file", path: "p.patch" });
  it.each([
    [
      "patch-from-pr",
      settings({ kind: "pull-request", paths: [] }),
      context("pull_request", pullRequestEvent("opened")),
      'input "patch-from-pr" is true',
    ],
    ["patch-from-pr on a push", settings({ kind: "pull-request", paths: [] }), context("push"), 'input "patch-from-pr" is true'],
    [
      "a dispatch for a pull request",
      file,
      context("workflow_dispatch", { inputs: { pr: "17", sha: "a".repeat(40) } }),
      'workflow_dispatch input "pr"',
    ],
    [
      "a dispatch naming it otherwise",
      file,
      context("workflow_dispatch", { inputs: { pull_request: "17" } }),
      'workflow_dispatch input "pull_request"',
    ],
    ["pull_request_target", file, context("pull_request_target", pullRequestEvent("opened")), "a pull_request_target event"],
    // A pull request's branch: a fork's workflow may pass anything to the patch input.
    ["a pull_request run with a patch file", file, context("pull_request", pullRequestEvent("opened")), "a pull_request event"],
    ["workflow_run", file, context("workflow_run", { workflow_run: { event: "pull_request" } }), "a workflow_run event"],
    ["issue_comment", file, context("issue_comment", { issue: { number: 3, pull_request: {} } }), "an issue_comment event"],
    ["merge_group", file, context("merge_group"), "a merge_group event"],
    ["repository_dispatch", settings({ kind: "config" }), context("repository_dispatch"), "a repository_dispatch event"],
  ])("names %s as a possible pull request's patch", (_name, runSettings, runContext, origin) => {
    expect(pullRequestPatchOrigin(runSettings, runContext)).toContain(origin);
  });

  it.each([
    ["a push with the config's patch", settings({ kind: "config" }), context("push")],
    ["a push with a patch file", file, context("push")],
    ["a schedule", file, context("schedule")],
    ["a manual dispatch without a pull request", settings({ kind: "config" }), context("workflow_dispatch", { inputs: {} })],
    ["a manual dispatch with an empty pr", file, context("workflow_dispatch", { inputs: { pr: "", note: "nightly" } })],
  ])("does not for %s", (_name, runSettings, runContext) => {
    expect(pullRequestPatchOrigin(runSettings, runContext)).toBeNull();
  });
});

describe("refuseUntrustedProcessRound", () => {
  let dir: string;
  const write = (name: string, runtime: string, trusted?: boolean): Promise<string> => writeFenceConfig(dir, name, runtime, trusted);
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "speedgate-trusted-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const fromPr = (config: string) =>
    refuseUntrustedProcessRound(
      settings({ kind: "pull-request", paths: [] }, config),
      context("workflow_dispatch", { inputs: { pr: "3" } }),
    );

  it("refuses runtime: process for a pull request's patch, naming the runtime, the origin and candidate.trusted", async () => {
    const error = await fromPr(await write("process.yml", "process")).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(
      concatPatterns(
        /process\.yml: runtime: process runs the candidate's code as the runner's own user.*\(input "patch-from-pr" is /,
        /true\).*candidate\.trusted: true/,
      ),
    );
  });

  it("lets it through with candidate.trusted: true, and never stands in the way of runtime: docker", async () => {
    await expect(fromPr(await write("trusted.yml", "process", true))).resolves.toBeUndefined();
    await expect(fromPr(await write("docker.yml", "docker"))).resolves.toBeUndefined();
  });
});
