import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { ConfigError } from "../src/vocabulary/config-error.js";
import { parseRoundConfigYaml } from "../src/config/load-round-config.js";
import type { ActionContext } from "./action-context.js";
import type { RunSettings } from "./action-settings.js";
import { INPUTS } from "./input-helper.js";

function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/**
 * The events whose patch can only be the repository's own: a push (to a branch, by someone who can
 * push) and a schedule (the default branch). Every other event can carry a pull request's code, whatever
 * input passes it on: pull_request and pull_request_target (the pull request itself), issue_comment and
 * workflow_run (started by anyone who can comment or open a pull request, with its patch fetched or
 * handed over as an artifact), merge_group, check_suite, repository_dispatch and the rest.
 */
const REPOSITORY_EVENTS: ReadonlySet<string> = new Set(["push", "schedule"]);

/** Dispatch inputs that name a pull request: the app's `pr`, and the names people give it. */
const PULL_REQUEST_INPUT = /^(pr|pull|pull[-_]?request|pr[-_]?number|pull[-_]?number|pull[-_]?request[-_]?number)$/i;

/**
 * Why this run's candidate may be a pull request's code, or null when it can only come from the
 * repository itself (a push, a schedule, a workflow_dispatch that names no pull request). Decided in
 * this one place for every input that carries a patch, and for a pull request's head commit alike
 * (base/head mode, where only the refusal's wording differs).
 */
export function pullRequestPatchOrigin(settings: RunSettings, context: ActionContext): string | null {
  if (settings.patch.kind === "pull-request") return `input "${INPUTS.patchFromPr}" is true`;
  if (context.eventName === "workflow_dispatch") {
    const inputs = field(context.payload, "inputs");
    const named =
      typeof inputs === "object" && inputs !== null
        ? Object.entries(inputs).find(
            ([name, value]) => PULL_REQUEST_INPUT.test(name) && value !== undefined && value !== null && value !== "",
          )
        : undefined;
    return named ? `the run was dispatched for pull request ${JSON.stringify(named[1])} (workflow_dispatch input "${named[0]}")` : null;
  }
  if (REPOSITORY_EVENTS.has(context.eventName)) return null;
  const event =
    context.eventName === ""
      ? "the run names no event"
      : `the run is ${/^[aeiou]/i.test(context.eventName) ? "an" : "a"} ${context.eventName} event`;
  return (
    `${event}, which can carry a pull request's code; only push, schedule and a workflow_dispatch naming no pull request are the ` +
    `repository's own`
  );
}

/** The round config's path when it runs the candidate with runtime: process and does not say its authors are trusted, else null. */
export async function untrustedProcessConfig(settings: RunSettings): Promise<string | null> {
  const path = resolve(settings.config);
  const config = parseRoundConfigYaml(await readFile(path, "utf8"), path);
  return config.runtime === "process" && !config.candidate.trusted ? path : null;
}

/**
 * runtime: process runs the candidate as a process of the runner's user, with that user's files and
 * sockets; namespaces only keep it from outliving the round and from other processes' environments.
 * So a pull request's patch runs there only when the config says its authors are trusted. Checked
 * before anything is fetched or started.
 */
export async function refuseUntrustedProcessRound(
  settings: RunSettings,
  context: ActionContext,
  options: { commits?: boolean } = {},
): Promise<void> {
  const origin = pullRequestPatchOrigin(settings, context);
  if (origin === null) return;
  const path = await untrustedProcessConfig(settings);
  if (path === null) return;
  throw new ConfigError(
    `${path}: runtime: process runs the candidate's code as the runner's own user (its files, its sockets, what later steps run), ` +
      `so it is for trusted code only, and this round's ` +
      `${options.commits ? "candidate is a pull request's head commit" : "patch comes from a pull request"} (${origin}). ` +
      "Score pull requests with runtime: docker, or set candidate.trusted: true in the round config if everyone who can open a pull " +
      "request that reaches this workflow is trusted.",
  );
}
