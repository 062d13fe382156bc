import type { Context } from "probot";
import type { GitHubClient } from "../src/github/github-client.js";
import { type PublishCheckRunOptions, publishCheckRun } from "../src/github/publish-check-run.js";
import { type RepoConfigResult, parseRepoConfig } from "../src/github/repo-config-schema.js";
import type { DeliveryLedger } from "./delivery-ledger.js";
import type { HeadPushLog } from "./head-push-log.js";
import type { KeyedQueue } from "./keyed-queue.js";
import type { CardReader } from "./read-cards-off-thread.js";
import type { RefusalLimiter } from "./refusal-limiter.js";
import type { DeliveryRetryPolicy } from "./retry-delivery.js";

/** State shared by the handlers of one app process. */
export interface AppDeps {
  deliveries: DeliveryLedger;
  refusals: RefusalLimiter;
  heads: HeadPushLog;
  cards: CardReader;
  queue: KeyedQueue;
  /** This app's id (GET /app), to recognise its own check runs; fetched once. */
  appId: () => Promise<number>;
  /** How a card whose posting failed on a passing GitHub outage is tried again (bot/retry-delivery.ts). */
  deliveryRetry: DeliveryRetryPolicy;
  /** A command older than this (ms, by its comment's created_at) is not run: a late replay, or a delivery redelivered by hand. */
  commandMaxAgeMs: number;
  now: () => number;
}

export const CONFIG_FILE = "speedgate.yml";

/** One pull request's key for the per-pull-request queue and the head push log. */
export function pullKey(repo: { owner: string; repo: string }, number: number): string {
  return `${repo.owner}/${repo.repo}#${number}`.toLowerCase();
}

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

/**
 * Wraps a handler so each delivery is handled once: not twice by its id, and not again under a new
 * id for what its payload identifies (`identify` names it: a comment, a run attempt, a check run and
 * its presser). A failed delivery releases its keys, so a redelivery gets another try.
 */
export function handleOnce<C extends Context>(
  deps: AppDeps,
  identify: (context: C) => string[],
  handler: (context: C) => Promise<void>,
): (context: C) => Promise<void> {
  return async (context) => {
    const keys = [`delivery:${context.id}`, ...identify(context)];
    if (!(await deps.deliveries.claim(keys))) {
      context.log.info({ delivery: context.id, keys }, "delivery already handled (the same delivery id or the same payload); ignoring the copy");
      return;
    }
    try {
      await handler(context);
    } catch (error) {
      await deps.deliveries.release(keys);
      throw error;
    }
  };
}
