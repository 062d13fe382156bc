import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import type { RepoRef } from "../src/github/github-client.js";

/** What the runner tells a step about the workflow run, read once from its environment. */
export interface ActionContext {
  eventName: string;
  /** The webhook payload that triggered the run (GITHUB_EVENT_PATH); {} when there is none. */
  payload: Record<string, unknown>;
  repository: RepoRef | null;
  runId: string | null;
  runAttempt: string | null;
  serverUrl: string;
  sha: string | null;
  /** The runner's scratch folder for this job (RUNNER_TEMP). */
  runnerTemp: string;
  /** Where actions/checkout put the repository (GITHUB_WORKSPACE): base/head mode reads the commits there. */
  workspace?: string | null;
}

function readPayload(path: string | undefined): Record<string, unknown> {
  if (!path) return {};
  try {
    const value: unknown = JSON.parse(readFileSync(path, "utf8"));
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function readActionContext(env: NodeJS.ProcessEnv): ActionContext {
  const [owner, repo] = (env.GITHUB_REPOSITORY ?? "").split("/");
  return {
    eventName: env.GITHUB_EVENT_NAME ?? "",
    payload: readPayload(env.GITHUB_EVENT_PATH),
    repository: owner && repo ? { owner, repo } : null,
    runId: env.GITHUB_RUN_ID || null,
    runAttempt: env.GITHUB_RUN_ATTEMPT || null,
    serverUrl: env.GITHUB_SERVER_URL || "https://github.com",
    sha: env.GITHUB_SHA || null,
    runnerTemp: env.RUNNER_TEMP || tmpdir(),
    workspace: env.GITHUB_WORKSPACE || null,
  };
}
