import { ConfigError } from "../src/vocabulary/config-error.js";
import { describeValue } from "../src/vocabulary/describe-value.js";
import type { CardSource } from "../src/scorecard/build-scorecard.js";
import type { ActionContext } from "./action-context.js";

function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/** The fork-safe workflow's inputs, sent by the app: `pr` (number) and `sha` (the exact commit to score). */
function dispatchInputs(context: ActionContext): { pullRequest: number | null; headSha: string | null } {
  const inputs = field(context.payload, "inputs");
  const pr = field(inputs, "pr");
  const sha = field(inputs, "sha");
  let pullRequest: number | null = null;
  if (pr !== undefined && pr !== "") {
    const number = typeof pr === "number" ? pr : typeof pr === "string" && pr.trim() !== "" ? Number(pr.trim()) : Number.NaN;
    if (!Number.isInteger(number) || number < 1) {
      throw new ConfigError(`workflow_dispatch input "pr": expected a pull request number, got ${describeValue(pr)}`);
    }
    pullRequest = number;
  }
  let headSha: string | null = null;
  if (sha !== undefined && sha !== "") {
    if (typeof sha !== "string" || !/^[0-9a-f]{40}$/i.test(sha.trim())) {
      throw new ConfigError(`workflow_dispatch input "sha": expected a full 40-character commit SHA, got ${describeValue(sha)}`);
    }
    headSha = sha.trim().toLowerCase();
  }
  return { pullRequest, headSha };
}

/**
 * Which pull request, commit and run a card is about: from a pull_request event's payload, or from
 * workflow_dispatch inputs `pr` and `sha`. The app matches cards to pull requests by these (and
 * checks them itself; the card is informative, not trusted).
 */
export function readCardSource(context: ActionContext): CardSource {
  const pullRequest = field(context.payload, "pull_request");
  let number: number | null = null;
  let headSha: string | null = null;
  if (pullRequest !== undefined) {
    const value = field(pullRequest, "number");
    const sha = field(field(pullRequest, "head"), "sha");
    number = typeof value === "number" ? value : null;
    headSha = typeof sha === "string" ? sha : null;
  } else if (context.eventName === "workflow_dispatch") {
    ({ pullRequest: number, headSha } = dispatchInputs(context));
  } else {
    headSha = context.sha;
  }
  const repository = context.repository ? `${context.repository.owner}/${context.repository.repo}` : null;
  const runUrl = repository && context.runId ? `${context.serverUrl}/${repository}/actions/runs/${context.runId}` : null;
  return { repository, pullRequest: number, headSha, runId: context.runId, runUrl };
}
