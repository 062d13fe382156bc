import type { Context } from "probot";
import { describe, expect, it } from "vitest";
import { checkRunPayloadSchema } from "../../bot/payloads/check-run-payload.js";
import { issueCommentPayloadSchema } from "../../bot/payloads/issue-comment-payload.js";
import { parsePayload } from "../../bot/payloads/parse-payload.js";
import { workflowRunPayloadSchema } from "../../bot/payloads/workflow-run-payload.js";
import { OWNER, REPO, checkRunRerequested, issueCommentCreated, workflowRunCompleted } from "../../harness/fake-github/adjust-payloads.js";

interface Logged {
  fields: Record<string, unknown>;
  message: string;
}

/** Just what parsePayload reads of a Probot context: the delivery, its payload and a logger. */
function contextOf(name: string, payload: Record<string, unknown>, logged: Logged[]): Context {
  const log = { warn: (fields: Record<string, unknown>, message: string) => logged.push({ fields, message }) };
  return { id: "delivery-1", name, payload, log } as unknown as Context;
}

const run = () => workflowRunCompleted({ id: 7, headSha: "b".repeat(40) });

describe("parsePayload", () => {
  it("returns the fields the handler reads and the repository it addresses, logging nothing", () => {
    const logged: Logged[] = [];
    const parsed = parsePayload(contextOf("workflow_run", run(), logged), workflowRunPayloadSchema);
    expect(parsed?.repo).toEqual({ owner: OWNER, repo: REPO });
    expect(parsed?.payload.workflow_run).toMatchObject({ id: 7, head_sha: "b".repeat(40), path: ".github/workflows/speedgate.yml" });
    expect(logged).toEqual([]);
  });

  it("ignores a delivery missing a field with one log line naming the event, the delivery and the field", () => {
    const logged: Logged[] = [];
    const payload = run();
    delete (payload.workflow_run as Record<string, unknown>).path;
    expect(parsePayload(contextOf("workflow_run", payload, logged), workflowRunPayloadSchema)).toBeNull();
    expect(logged).toHaveLength(1);
    expect(logged[0]?.message).toBe(
      "ignoring the workflow_run.completed delivery delivery-1: workflow_run.path: expected the workflow file's path, but it is missing",
    );
    expect(logged[0]?.fields).toMatchObject({ delivery: "delivery-1", event: "workflow_run.completed" });
  });

  it("names a null where a value is needed, and a missing parent object", () => {
    const logged: Logged[] = [];
    const comment = issueCommentCreated({ number: 3, body: "/rescore", login: "m" });
    (comment.comment as Record<string, unknown>).body = null;
    expect(parsePayload(contextOf("issue_comment", comment, logged), issueCommentPayloadSchema)).toBeNull();
    const check = checkRunRerequested({ headSha: "c".repeat(40), login: "m" });
    delete check.sender;
    expect(parsePayload(contextOf("check_run", check, logged), checkRunPayloadSchema)).toBeNull();
    expect(logged.map((line) => line.message)).toEqual([
      "ignoring the issue_comment.created delivery delivery-1: comment.body: expected the comment's text, got null",
      "ignoring the check_run.rerequested delivery delivery-1: sender: expected who asked for the re-run, but it is missing",
    ]);
  });

  it("refuses a head SHA that is not one, which would otherwise reach an API path", () => {
    const logged: Logged[] = [];
    const payload = workflowRunCompleted({ id: 7, headSha: "" });
    expect(parsePayload(contextOf("workflow_run", payload, logged), workflowRunPayloadSchema)).toBeNull();
    expect(logged[0]?.message).toContain("workflow_run.head_sha: expected the commit the run scored");
  });
});
