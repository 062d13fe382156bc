import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { ConfigError } from "../src/config/config-error.js";
import { parseRoundConfigYaml } from "../src/config/load-round-config.js";
import type { ActionContext } from "./action-context.js";
import type { RunSettings } from "./action-settings.js";
import { INPUTS } from "./input-helper.js";

function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/**
 * Why this run's candidate is a pull request's code, or null when it comes from the repository itself:
 * the one decision the fence makes, for a patch and for a head commit alike. A dispatched run that names
 * a pull request (the fork-safe workflow the app starts) and a pull_request_target run score code their
 * workflow did not write, whatever input carries it; so does a workflow_run scoring a pull request's
 * head commit (base/head mode: `commits` true), whose workflow is the default branch's.
 */
export function pullRequestPatchOrigin(settings: RunSettings, context: ActionContext, options: { commits?: boolean } = {}): string | null {
  if (settings.patch.kind === "pull-request") return `input "${INPUTS.patchFromPr}" is true`;
  const pr = field(field(context.payload, "inputs"), "pr");
  if (context.eventName === "workflow_dispatch" && pr !== undefined && pr !== "") {
    return `the run was dispatched for pull request ${JSON.stringify(pr)} (workflow_dispatch input "pr")`;
  }
  if (context.eventName === "pull_request_target") return "the run is a pull_request_target event";
  if (options.commits && context.eventName === "workflow_run") return "the run is a workflow_run event scoring a pull request's head commit";
  return null;
}

/**
 * runtime: process runs the candidate as a process of the runner's user, with that user's files and
 * sockets; namespaces only keep it from outliving the round and from other processes' environments.
 * So a pull request's patch runs there only when the config says its authors are trusted. Checked
 * before anything is fetched or started.
 */
export async function refuseUntrustedProcessRound(settings: RunSettings, context: ActionContext, options: { commits?: boolean } = {}): Promise<void> {
  const origin = pullRequestPatchOrigin(settings, context, options);
  if (origin === null) return;
  const path = resolve(settings.config);
  const config = parseRoundConfigYaml(await readFile(path, "utf8"), path);
  if (config.runtime !== "process" || config.candidate.trusted) return;
  throw new ConfigError(
    `${path}: runtime: process runs the candidate's code as the runner's own user (its files, its sockets, what later steps run), ` +
      `so it is for trusted code only, and this round's ${options.commits ? "candidate is a pull request's head commit" : "patch comes from a pull request"} (${origin}). ` +
      "Score pull requests with runtime: docker, or set candidate.trusted: true in the round config if everyone who can open a pull request that reaches this workflow is trusted.",
  );
}
