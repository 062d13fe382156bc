import type { Context } from "probot";

/*
 * What a delivery's signed payload identifies, for the delivery ledger (bot/delivery-ledger.ts). Read
 * leniently: a payload missing the field gets no key and is then refused by its handler's schema.
 */

type Loose = Record<string, unknown> | undefined;

function field(value: unknown, ...path: string[]): unknown {
  let current: unknown = value;
  for (const key of path) current = typeof current === "object" && current !== null ? (current as Record<string, unknown>)[key] : undefined;
  return current;
}

function repoOf(context: Context): string {
  const name = field(context.payload, "repository", "full_name");
  return typeof name === "string" ? name.toLowerCase() : "?";
}

/** The parts as one key, or null when one is missing. */
function join(...parts: unknown[]): string | null {
  const strings: string[] = [];
  for (const part of parts) {
    if (typeof part === "string") strings.push(part);
    else if (typeof part === "number") strings.push(String(part));
    else return null;
  }
  return strings.join(":");
}

const keyOf = (kind: string, context: Context, ...parts: unknown[]): string[] => {
  const joined = join(...parts);
  return joined === null ? [] : [`${kind}:${repoOf(context)}:${joined}`];
};

/** The comment: a comment is one command, whatever the delivery id. */
export function commentKeys(context: Context): string[] {
  return keyOf("issue_comment", context, field(context.payload, "comment", "id"));
}

/** The run and its attempt: a re-run attempt is new work, a replay of the same attempt is not. */
export function workflowRunKeys(context: Context): string[] {
  const run = field(context.payload, "workflow_run") as Loose;
  return keyOf("workflow_run", context, field(run, "id"), field(run, "run_attempt") ?? 1);
}

/** The check run and who pressed Re-run: each presser's permission is judged once per check run. */
export function rerequestKeys(context: Context): string[] {
  return keyOf("check_run", context, field(context.payload, "check_run", "id"), "rerequested", field(context.payload, "sender", "login"));
}

/** The pull request's event: its action, head and GitHub's updated_at at that moment. */
export function pullRequestKeys(context: Context): string[] {
  const pull = field(context.payload, "pull_request") as Loose;
  return keyOf("pull_request", context, field(pull, "number"), field(context.payload, "action"), field(pull, "head", "sha"), field(pull, "updated_at"));
}
