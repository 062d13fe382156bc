import type { Context } from "probot";
import type { GitHubClient } from "../src/github/github-client.js";
import { type PublishCheckRunOptions, publishCheckRun } from "../src/github/publish-check-run.js";
import { type RepoConfigResult, parseRepoConfig } from "../src/github/repo-config-schema.js";
import type { DeliveryLog } from "./delivery-log.js";
import type { KeyedQueue } from "./keyed-queue.js";
import type { DeliveryRetryPolicy } from "./retry-delivery.js";

/** State shared by the handlers of one app process. */
export interface AppDeps {
  deliveries: DeliveryLog;
  queue: KeyedQueue;
  /** This app's id (GET /app), to recognise its own check runs; fetched once. */
  appId: () => Promise<number>;
  /** How a card whose posting failed on a passing GitHub outage is tried again (bot/retry-delivery.ts). */
  deliveryRetry: DeliveryRetryPolicy;
}

export const CONFIG_FILE = "speedgate.yml";

export function clientOf(context: Context): GitHubClient {
  return context.octokit;
}

/** `.github/speedgate.yml` from the default branch through Probot's config support, validated. */
export async function loadRepoConfig(context: Context): Promise<RepoConfigResult> {
  try {
    return parseRepoConfig(await context.config<Record<string, unknown>>(CONFIG_FILE));
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    const detail = cause instanceof Error ? `: ${cause.message.split("\n")[0] ?? ""}` : "";
    return { ok: false, problems: [`${(error as Error).message.replace("[@probot/octokit-plugin-config] ", "")}${detail}`] };
  }
}

export function describeConfigProblems(problems: readonly string[]): string {
  return [`\`.github/${CONFIG_FILE}\` on the default branch is invalid:`, "", ...problems.map((problem) => `- ${problem}`)].join("\n");
}

/** An invalid config fails the check, saying what is wrong: the gate cannot be judged without it. */
export async function failCheckOnConfig(
  client: GitHubClient,
  check: Omit<PublishCheckRunOptions, "state" | "title" | "summary">,
  problems: readonly string[],
): Promise<void> {
  await publishCheckRun(client, {
    ...check,
    state: { status: "completed", conclusion: "failure" },
    title: `Invalid .github/${CONFIG_FILE}`,
    summary: describeConfigProblems(problems),
  });
}

/** Wraps a handler so each delivery id is handled once per process; a failed one may be redelivered. */
export function handleOnce<C extends Context>(deps: AppDeps, handler: (context: C) => Promise<void>): (context: C) => Promise<void> {
  return async (context) => {
    if (!deps.deliveries.claim(context.id)) {
      context.log.info({ delivery: context.id }, "delivery already handled; ignoring the copy");
      return;
    }
    try {
      await handler(context);
    } catch (error) {
      deps.deliveries.release(context.id);
      throw error;
    }
  };
}
