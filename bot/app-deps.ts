import type { Context, Probot } from "probot";
import type { GitHubClient } from "../src/github/github-client.js";
import { type PublishCheckRunOptions, publishCheckRun } from "../src/github/publish-check-run.js";
import { type RepoConfigResult, parseRepoConfig } from "../src/github/repo-config-schema.js";
import type { AppStore } from "./app-store.js";
import type { CardReader } from "./read-cards-off-thread.js";
import type { UnpinnedCheckWarnings } from "./warn-unpinned-check.js";

/** An installation's Octokit as Probot makes it (app.auth(installationId)): REST, GraphQL and the config plugin. */
export type InstallationOctokit = Awaited<ReturnType<Probot["auth"]>>;

/** State shared by the intake and the jobs of one app process. */
export interface AppDeps {
  /** Where the work, the ledgers and the history live: the database when deployed. */
  store: AppStore;
  cards: CardReader;
  /** This app's id and slug (GET /app), to recognise its own check runs and issues; fetched once. */
  appId: () => Promise<number>;
  appSlug: () => Promise<string>;
  /** The Octokit of the installation a delivery came from: jobs run after the delivery, so they authenticate again. */
  octokit: (installationId: number) => Promise<InstallationOctokit>;
  /** A command older than this when GitHub first sent it (ms, by its comment's created_at) is not run: a late replay. */
  commandMaxAgeMs: number;
  /** Where the posted cards link their troubleshooting pages: the app's own, never the artifact's (bot/resolve-app-docs-url.ts). */
  docsBaseUrl: string;
  /** Whether branch protection counts only this app's `speedgate` check, said on the check when not. */
  requiredCheck: UnpinnedCheckWarnings;
  now: () => number;
}

export const CONFIG_FILE = "speedgate.yml";

/** One pull request's key for the head push log and the refusal limiter. */
export function pullKey(repo: { owner: string; repo: string }, number: number): string {
  return `${repo.owner}/${repo.repo}#${number}`.toLowerCase();
}

export function clientOf(context: Context): GitHubClient {
  return context.octokit;
}

/** `.github/speedgate.yml` from the default branch through Probot's config plugin, validated. */
export async function loadRepoConfig(octokit: InstallationOctokit, repo: { owner: string; repo: string }): Promise<RepoConfigResult> {
  try {
    const { config, files } = await octokit.config.get({ owner: repo.owner, repo: repo.repo, path: `.github/${CONFIG_FILE}` });
    return parseRepoConfig(files.some((file) => file.config !== null) ? config : null);
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
