import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

interface PullRequestPayload {
  action: string;
  number: number;
  pull_request: { number: number; head: { sha: string }; base: { sha: string } };
  repository: { full_name: string };
  [key: string]: unknown;
}

interface WebhookExamples {
  name: string;
  examples: Array<Record<string, unknown>>;
}

const require = createRequire(import.meta.url);

/** A real pull_request payload from @octokit/webhooks-examples, as GitHub sends it to a workflow run. */
export function pullRequestEvent(action: string): PullRequestPayload {
  const all = JSON.parse(readFileSync(require.resolve("@octokit/webhooks-examples"), "utf8")) as WebhookExamples[];
  const example = all.find((entry) => entry.name === "pull_request")?.examples.find((entry) => entry.action === action);
  if (!example) throw new Error(`no pull_request ${action} example in @octokit/webhooks-examples`);
  return example as unknown as PullRequestPayload;
}
