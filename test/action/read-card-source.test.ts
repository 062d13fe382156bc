import { describe, expect, it } from "vitest";
import type { ActionContext } from "../../action/action-context.js";
import { readCardSource } from "../../action/read-card-source.js";
import { pullRequestEvent } from "./support/webhook-payloads.js";

function context(eventName: string, payload: Record<string, unknown>): ActionContext {
  return {
    eventName,
    payload,
    repository: { owner: "Codertocat", repo: "Hello-World" },
    runId: "4242",
    runAttempt: "1",
    serverUrl: "https://github.com",
    sha: "0".repeat(40),
    runnerTemp: "/runner/_temp",
  };
}

describe("readCardSource", () => {
  it("takes the pull request and its head from a pull_request event", () => {
    const event = pullRequestEvent("opened");
    expect(readCardSource(context("pull_request", event))).toEqual({
      repository: "Codertocat/Hello-World",
      pullRequest: event.number,
      headSha: event.pull_request.head.sha,
      runId: "4242",
      runUrl: "https://github.com/Codertocat/Hello-World/actions/runs/4242",
    });
  });

  it("takes pr and sha from the fork-safe workflow's dispatch inputs", () => {
    const sha = "ABCDEF0123456789abcdef0123456789abcdef01";
    expect(readCardSource(context("workflow_dispatch", { inputs: { pr: "17", sha } }))).toMatchObject({
      pullRequest: 17,
      headSha: sha.toLowerCase(),
    });
  });

  it.each([
    [{ pr: "seventeen", sha: "a".repeat(40) }, 'workflow_dispatch input "pr": expected a pull request number, got "seventeen"'],
    [{ pr: "17", sha: "main" }, 'workflow_dispatch input "sha": expected a full 40-character commit SHA, got "main"'],
  ])("refuses dispatch inputs %j", (inputs, message) => {
    expect(() => readCardSource(context("workflow_dispatch", { inputs }))).toThrow(message);
  });

  it("uses the pushed commit for other events", () => {
    expect(readCardSource(context("push", {}))).toMatchObject({ pullRequest: null, headSha: "0".repeat(40) });
  });
});
