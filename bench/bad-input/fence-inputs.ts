import type { ActionContext } from "../../action/action-context.js";
import type { RunSettings } from "../../action/action-settings.js";
import { pullRequestPatchOrigin } from "../../action/refuse-untrusted-process-round.js";
import type { CorpusRow } from "./corpus-row.js";

/*
 * Issue #24 point 2: events under which a workflow can hand a pull request's patch to the action through
 * `patch:`. Each must be named as a possible pull request's patch, which makes the action refuse
 * `runtime: process` without candidate.trusted (test/action/process-fence-events.test.ts plays them
 * through the bundled action): "clear" when it is, "accepted" when the patch would run on the host.
 */

const CATEGORY = "process fence";

const EVENTS: Array<{ name: string; payload: Record<string, unknown> }> = [
  { name: "workflow_run", payload: { workflow_run: { event: "pull_request" } } },
  { name: "issue_comment", payload: { issue: { number: 3, pull_request: {} } } },
  { name: "pull_request", payload: { pull_request: { number: 3 } } },
  { name: "pull_request_target", payload: { pull_request: { number: 3 } } },
  { name: "pull_request_review", payload: { pull_request: { number: 3 } } },
  { name: "merge_group", payload: {} },
  { name: "check_suite", payload: {} },
  { name: "repository_dispatch", payload: { client_payload: { pr: 3 } } },
  { name: "workflow_dispatch", payload: { inputs: { pr: "3" } } },
  { name: "workflow_dispatch", payload: { inputs: { pull_request: "3" } } },
];

export function runFenceInputs(): CorpusRow[] {
  const settings: RunSettings = {
    mode: "run",
    config: "round.yml",
    patch: { kind: "file", path: "pr.patch" },
    commits: { base: null, head: null, repositoryPath: null },
    shard: null,
    outDir: "out",
    failOnGate: true,
    comment: false,
    githubToken: "",
  };
  return EVENTS.map((event) => {
    const context: ActionContext = {
      eventName: event.name,
      payload: event.payload,
      repository: { owner: "o", repo: "r" },
      runId: "1",
      runAttempt: "1",
      serverUrl: "https://github.com",
      sha: null,
      runnerTemp: "/tmp",
    };
    const input = `runtime: process, patch file, ${event.name} ${JSON.stringify(event.payload)}`;
    const origin = pullRequestPatchOrigin(settings, context);
    return origin === null
      ? { category: CATEGORY, input, outcome: "accepted", message: "the patch would run as a host process without candidate.trusted" }
      : { category: CATEGORY, input, outcome: "clear", message: `refused unless candidate.trusted: ${origin}` };
  });
}
