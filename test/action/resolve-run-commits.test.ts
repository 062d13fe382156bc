import { beforeAll, describe, expect, it } from "vitest";
import type { ActionContext } from "../../action/action-context.js";
import type { RunSettings } from "../../action/action-settings.js";
import { readEventCommits, resolveRunCommits, scoresCommits } from "../../action/resolve-run-commits.js";
import { pullRequestPatchOrigin } from "../../action/refuse-untrusted-process-round.js";
import { ConfigError } from "../../src/vocabulary/config-error.js";
import type { GitHubClient } from "../../src/github/github-client.js";
import { createRecordingLogger } from "../../src/logger.js";
import { type GitRepository, makeGitRepository } from "../support/git/make-git-repository.js";
import { pullRequestEvent } from "./support/webhook-payloads.js";

const A = "a".repeat(40);
const B = "b".repeat(40);

function context(eventName: string, payload: Record<string, unknown> = {}, workspace: string | null = null): ActionContext {
  return {
    eventName,
    payload,
    repository: { owner: "o", repo: "r" },
    runId: "1",
    runAttempt: "1",
    serverUrl: "https://github.com",
    sha: null,
    runnerTemp: "/tmp",
    workspace,
  };
}

function settings(commits: Partial<RunSettings["commits"]> = {}, patch: RunSettings["patch"] = { kind: "config" }): RunSettings {
  return {
    mode: "run",
    config: "round.yml",
    patch,
    commits: { base: null, head: null, repositoryPath: null, ...commits },
    shard: null,
    outDir: "/tmp/out",
    failOnGate: true,
    comment: false,
    githubToken: "t0ken",
  };
}

describe("readEventCommits", () => {
  it("reads a pull_request event's base and head", () => {
    const payload = structuredClone(pullRequestEvent("opened")) as unknown as Record<
      string,
      { base: { sha: string }; head: { sha: string } }
    >;
    const pull = payload.pull_request;
    if (!pull) throw new Error("no pull_request in the example");
    pull.base.sha = A;
    pull.head.sha = B;
    expect(readEventCommits(context("pull_request", payload))).toMatchObject({ base: A, head: B, pullRequest: null });
  });

  it("reads the app's dispatch inputs, with or without base", () => {
    expect(readEventCommits(context("workflow_dispatch", { inputs: { pr: "12", sha: B, base: A } }))).toMatchObject({
      base: A,
      head: B,
      pullRequest: 12,
    });
    expect(readEventCommits(context("workflow_dispatch", { inputs: { pr: "12", sha: B } }))).toMatchObject({
      base: null,
      head: B,
      pullRequest: 12,
    });
    expect(readEventCommits(context("workflow_dispatch", { inputs: {} }))).toBeNull();
  });

  it("reads a workflow_run's pull request, and nothing for a fork's (GitHub lists none)", () => {
    const run = (pulls: unknown[]) => context("workflow_run", { workflow_run: { pull_requests: pulls } });
    expect(readEventCommits(run([{ number: 3, base: { sha: A }, head: { sha: B } }]))).toMatchObject({ base: A, head: B });
    expect(readEventCommits(run([]))).toBeNull();
  });

  it("reads nothing from a push", () => {
    expect(readEventCommits(context("push", { after: B }))).toBeNull();
  });
});

describe("scoresCommits", () => {
  it("scores commits only without a patch, when the inputs or the event name them", () => {
    expect(scoresCommits(settings(), context("workflow_dispatch", { inputs: { pr: "1", sha: B } }), false)).toBe(true);
    expect(scoresCommits(settings({ head: "HEAD" }), context("push"), false)).toBe(true);
    expect(scoresCommits(settings(), context("push"), false)).toBe(false);
    // A pull_request payload without its base (never GitHub's) keeps the fixed-baseline mode.
    expect(scoresCommits(settings(), context("pull_request", { pull_request: { number: 1, head: { sha: B } } }), false)).toBe(false);
    expect(
      scoresCommits(
        settings({}, { kind: "pull-request", paths: [] }),
        context("workflow_dispatch", { inputs: { pr: "1", sha: B } }),
        false,
      ),
    ).toBe(false);
    // A competition's config names its patch: the event's commits are not the candidate.
    expect(scoresCommits(settings(), context("workflow_dispatch", { inputs: { pr: "1", sha: B } }), true)).toBe(false);
  });

  it("refuses base-sha with a config that names its own patch", () => {
    expect(() => scoresCommits(settings({ base: A }), context("push"), true)).toThrow(ConfigError);
    expect(() => scoresCommits(settings({ base: A }), context("push"), true)).toThrow(
      'input "base-sha": expected no candidate.patch in the round config',
    );
  });
});

describe("the untrusted-code fence in base/head mode", () => {
  it("treats the head of a pull request as a pull request's code, like its patch, under every event that can carry one", () => {
    expect(pullRequestPatchOrigin(settings(), context("workflow_dispatch", { inputs: { pr: "4", sha: B } }))).toContain(
      'workflow_dispatch input "pr"',
    );
    expect(pullRequestPatchOrigin(settings(), context("pull_request_target", {}))).toContain("pull_request_target");
    expect(pullRequestPatchOrigin(settings(), context("workflow_run", {}))).toContain("workflow_run");
    // A workflow_run can hand a pull request's patch over as an artifact: a patch file there is refused too (#24).
    expect(pullRequestPatchOrigin(settings({}, { kind: "file", path: "p.patch" }), context("workflow_run", {}))).toContain("workflow_run");
    expect(pullRequestPatchOrigin(settings({ head: B }), context("push"))).toBeNull();
  });
});

describe("resolveRunCommits", () => {
  let repo: GitRepository;
  const c = { base: "", head: "" };
  beforeAll(async () => {
    repo = await makeGitRepository();
    c.base = await repo.commit("base", { "a.txt": "a\n" });
    c.head = await repo.commit("head", { "a.txt": "b\n" });
  });

  it("reads the base of a dispatched pull request from GitHub when the workflow declares no base input", async () => {
    const requests: Array<{ route: string; parameters: unknown }> = [];
    const client: GitHubClient = {
      request: (route, parameters) => {
        requests.push({ route, parameters });
        return Promise.resolve({
          status: 200,
          headers: {},
          data: { number: 9, head: { sha: c.head }, base: { sha: c.base }, state: "open" },
        });
      },
    };
    const resolved = await resolveRunCommits(settings(), context("workflow_dispatch", { inputs: { pr: "9", sha: c.head } }, repo.dir), {
      createClient: () => client,
      logger: createRecordingLogger(),
    });
    expect(resolved).toMatchObject({ base: c.base, head: c.head, repoDir: repo.dir });
    expect(requests).toEqual([
      { route: "GET /repos/{owner}/{repo}/pulls/{pull_number}", parameters: { owner: "o", repo: "r", pull_number: 9 } },
    ]);
  });

  it("prefers the inputs to the event, and names the input a missing commit needs", async () => {
    const deps = {
      createClient: (): GitHubClient => ({ request: () => Promise.reject(new Error("no API here")) }),
      logger: createRecordingLogger(),
    };
    const resolved = await resolveRunCommits(
      settings({ base: c.base, repositoryPath: repo.dir }),
      context("workflow_dispatch", { inputs: { pr: "9", sha: c.head, base: A } }),
      deps,
    );
    expect(resolved).toMatchObject({ base: c.base, head: c.head });
    await expect(resolveRunCommits(settings({ head: c.head, repositoryPath: repo.dir }), context("push"), deps)).rejects.toThrow(
      'input "base-sha": expected the base commit to score',
    );
  });

  it("says which input names the repository when the folder is no clone", async () => {
    const deps = {
      createClient: (): GitHubClient => ({ request: () => Promise.reject(new Error("no API here")) }),
      logger: createRecordingLogger(),
    };
    await expect(resolveRunCommits(settings({ base: c.base, head: c.head, repositoryPath: "/" }), context("push"), deps)).rejects.toThrow(
      'input "repository-path": expected a clone of the repository',
    );
  });
});
