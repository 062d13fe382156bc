import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ActionContext } from "../../action/action-context.js";
import type { PatchSource, RunSettings } from "../../action/action-settings.js";
import { pullRequestPatchOrigin, refuseUntrustedProcessRound } from "../../action/refuse-untrusted-process-round.js";
import { ConfigError } from "../../src/config/config-error.js";
import { pullRequestEvent } from "./support/webhook-payloads.js";

function context(eventName: string, payload: Record<string, unknown> = {}): ActionContext {
  return { eventName, payload, repository: { owner: "o", repo: "r" }, runId: "1", runAttempt: "1", serverUrl: "https://github.com", sha: null, runnerTemp: "/tmp" };
}

function settings(patch: PatchSource, config = "round.yml"): RunSettings {
  return { mode: "run", config, patch, commits: { base: null, head: null, repositoryPath: null }, shard: null, outDir: "/tmp/out", failOnGate: true, comment: false, githubToken: "" };
}

describe("pullRequestPatchOrigin", () => {
  it.each([
    ["patch-from-pr", settings({ kind: "pull-request", paths: [] }), context("pull_request", pullRequestEvent("opened")), 'input "patch-from-pr" is true'],
    ["a dispatch for a pull request", settings({ kind: "file", path: "p.patch" }), context("workflow_dispatch", { inputs: { pr: "17", sha: "a".repeat(40) } }), 'workflow_dispatch input "pr"'],
    ["pull_request_target", settings({ kind: "file", path: "p.patch" }), context("pull_request_target", pullRequestEvent("opened")), "pull_request_target"],
  ])("names %s as a pull request's patch", (_name, runSettings, runContext, origin) => {
    expect(pullRequestPatchOrigin(runSettings, runContext)).toContain(origin);
  });

  it.each([
    // A branch of this repository: its author can push, and its workflow defines the config anyway.
    ["a pull_request run with a patch file", settings({ kind: "file", path: "p.patch" }), context("pull_request", pullRequestEvent("opened"))],
    ["a push with the config's patch", settings({ kind: "config" }), context("push")],
    ["a manual dispatch without a pull request", settings({ kind: "config" }), context("workflow_dispatch", { inputs: {} })],
  ])("does not for %s", (_name, runSettings, runContext) => {
    expect(pullRequestPatchOrigin(runSettings, runContext)).toBeNull();
  });
});

describe("refuseUntrustedProcessRound", () => {
  let dir: string;
  const write = async (name: string, runtime: string, trusted?: boolean): Promise<string> => {
    const path = join(dir, name);
    const candidate = trusted === undefined ? "" : `candidate:\n  trusted: ${trusted}\n`;
    await writeFile(path, `engine: e\nruntime: ${runtime}\nport: 1\nbaseline:\n  image: i\n  command: [run]\n${candidate}bench:\n  prompts: p.jsonl\n  maxTokens: 1\n  requestIntervalMs: 0\n  contextLimit: 1\n  tolerance: 1\ngate:\n  minRoundScore: 1\n`);
    return path;
  };
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "speedgate-trusted-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const fromPr = (config: string) => refuseUntrustedProcessRound(settings({ kind: "pull-request", paths: [] }, config), context("workflow_dispatch", { inputs: { pr: "3" } }));

  it("refuses runtime: process for a pull request's patch, naming the runtime, the origin and candidate.trusted", async () => {
    const error = await fromPr(await write("process.yml", "process")).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/process\.yml: runtime: process runs the candidate's code as the runner's own user.*\(input "patch-from-pr" is true\).*candidate\.trusted: true/);
  });

  it("lets it through with candidate.trusted: true, and never stands in the way of runtime: docker", async () => {
    await expect(fromPr(await write("trusted.yml", "process", true))).resolves.toBeUndefined();
    await expect(fromPr(await write("docker.yml", "docker"))).resolves.toBeUndefined();
  });
});
