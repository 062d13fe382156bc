import { readFileSync } from "node:fs";
import examples from "@octokit/webhooks-examples";
import { parse } from "yaml";

/*
 * What the runner gives a scoring job as its event, and what GitHub names the run: from the
 * published webhook examples and the repository's example workflow, not written by hand.
 */

const FORK_SAFE_WORKFLOW = new URL("../../../examples/workflows/speedgate-fork-safe.yml", import.meta.url);

function example(event: string, pick: (payload: Record<string, unknown>) => boolean): Record<string, unknown> {
  const group = (examples as unknown as Array<{ name: string; examples: Array<Record<string, unknown>> }>).find(
    (entry) => entry.name === event,
  );
  const found = group?.examples.find(pick);
  if (!found) throw new Error(`no matching ${event} example in @octokit/webhooks-examples`);
  return structuredClone(found);
}

/** The pull_request.synchronize example as is: pull request #2 of Codertocat/Hello-World from its branch `changes`. */
export function pullRequestSynchronize(): { name: string; payload: Record<string, unknown> } {
  return { name: "pull_request", payload: example("pull_request", (payload) => payload.action === "synchronize") };
}

export interface PullRequestHead {
  number: number;
  headSha: string;
  headBranch: string;
  headRepo: string;
  baseSha: string;
  author: string;
}

/** The fields of a pull_request payload the fake's pull request must agree with. */
export function headOf(payload: Record<string, unknown>): PullRequestHead {
  const pull = payload.pull_request as {
    number: number;
    user: { login: string };
    head: { sha: string; ref: string; repo: { full_name: string } };
    base: { sha: string };
  };
  return {
    number: pull.number,
    headSha: pull.head.sha,
    headBranch: pull.head.ref,
    headRepo: pull.head.repo.full_name,
    baseSha: pull.base.sha,
    author: pull.user.login,
  };
}

/** The event of a run the app dispatched: workflow_dispatch with the inputs it sent. */
export function workflowDispatch(inputs: Record<string, string>): { name: string; payload: Record<string, unknown> } {
  const payload = example("workflow_dispatch", () => true);
  payload.inputs = inputs;
  payload.workflow = ".github/workflows/speedgate.yml";
  return { name: "workflow_dispatch", payload };
}

/** The title GitHub gives a dispatched run of the fork-safe example workflow: its run-name with the inputs filled in. */
export function dispatchedRunTitle(inputs: { pr: string; sha: string }): string {
  const workflow = parse(readFileSync(FORK_SAFE_WORKFLOW, "utf8")) as { "run-name"?: unknown };
  const runName = workflow["run-name"];
  if (typeof runName !== "string") throw new Error("examples/workflows/speedgate-fork-safe.yml has no run-name");
  return runName.replace(/\$\{\{\s*inputs\.(\w+)\s*\}\}/g, (_, name: string) =>
    name === "pr" ? inputs.pr : name === "sha" ? inputs.sha : "",
  );
}
