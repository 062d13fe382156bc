import type { Context, Probot } from "probot";
import type { GitHubClient } from "../../src/github/github-client.js";
import { type PublishCheckRunOptions, publishCheckRun } from "../../src/github/publish-check-run.js";
import {
  APP_CONFIG_PATH,
  type LoadedRepoConfig,
  type RepoConfigSource,
  describeConfigSource,
  readRepoConfig,
} from "../read-repo-config.js";
import type { AppStore } from "../store/app-store.js";
import type { CollaboratorRoleCache } from "../collaborator-role-cache.js";
import type { CardReader } from "../read-cards-off-thread.js";
import type { UnpinnedCheckWarnings } from "../warn-unpinned-check.js";

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
  /** Where the history pages are (SPEEDGATE_PAGES_URL, bot/read-pages-settings.ts): each posted card links its page; null: no pages. */
  pagesUrl: string | null;
  /** Each account's permission on a repository, read once a minute at most (a `/rescore` flood from one account). */
  roles: CollaboratorRoleCache;
  /** Whether branch protection counts only this app's `speedgate` check, said on the check when not. */
  requiredCheck: UnpinnedCheckWarnings;
  now: () => number;
}

/** One pull request's key for the head push log and the refusal limiter. */
export function pullKey(repo: { owner: string; repo: string }, number: number): string {
  return `${repo.owner}/${repo.repo}#${number}`.toLowerCase();
}

export function clientOf(context: Context): GitHubClient {
  return context.octokit;
}

/** The app's settings for a repository (bot/read-repo-config.ts says where they are read from), validated. */
export async function loadRepoConfig(octokit: InstallationOctokit, repo: { owner: string; repo: string }): Promise<LoadedRepoConfig> {
  return await readRepoConfig(octokit, repo);
}

/** What is wrong with the settings file, naming the file that was read. */
export function describeConfigProblems(config: { problems: readonly string[]; source: RepoConfigSource }): string {
  return [`${describeConfigSource(config.source)} is invalid:`, "", ...config.problems.map((problem) => `- ${problem}`)].join("\n");
}

/** An invalid config fails the check, saying what is wrong: the gate cannot be judged without it. */
export async function failCheckOnConfig(
  client: GitHubClient,
  check: Omit<PublishCheckRunOptions, "state" | "title" | "summary">,
  config: { problems: readonly string[]; source: RepoConfigSource },
): Promise<void> {
  await publishCheckRun(client, {
    ...check,
    state: { status: "completed", conclusion: "failure" },
    title: `Invalid ${config.source?.path ?? APP_CONFIG_PATH}`,
    summary: describeConfigProblems(config),
  });
}
