import { parse } from "yaml";
import { type RepoConfigResult, DEFAULT_REPO_CONFIG, parseRepoConfig } from "../src/github/repo-config-schema.js";

/*
 * Where the app's settings for a repository live. Each is read from a default branch only, which a
 * pull request cannot change: the repository's own file, under its name since #23 or the name it had
 * before (beside the round config in .github/speedgate/, `.github/speedgate.yml` was easy to take for
 * it); else the owner's `.github` repository, which sets defaults for all of an organisation's
 * repositories (Probot's convention, which the app followed through Probot's config plugin). The
 * plugin also honoured `_extends`, pulling settings from any other repository: the app reads the
 * files itself so that what decides a verdict is one file a maintainer can point at, and `_extends`
 * is refused as an unknown field.
 */

export const APP_CONFIG_PATH = ".github/speedgate-app.yml";
/** The app config's name before #23; read when the repository has no file under the new one. */
export const LEGACY_APP_CONFIG_PATH = ".github/speedgate.yml";
/** The organisation's repository whose files apply to every repository of the owner that has none. */
export const OWNER_CONFIG_REPO = ".github";

/** The file the settings came from; null when there was none (the defaults). */
export type RepoConfigSource = { repository: string; path: string; ownersDefaults: boolean } | null;

/** The file as a sentence names it: "`.github/speedgate-app.yml` on the default branch". */
export function describeConfigSource(source: RepoConfigSource): string {
  if (!source) return `\`${APP_CONFIG_PATH}\``;
  return source.ownersDefaults
    ? `\`${source.path}\` in ${source.repository} (the owner's defaults)`
    : `\`${source.path}\` on the default branch`;
}

export type LoadedRepoConfig = RepoConfigResult & { source: RepoConfigSource };

/** The installation's Octokit as far as this needs it: one REST request. */
export interface ContentsClient {
  request(
    route: "GET /repos/{owner}/{repo}/contents/{path}",
    parameters: { owner: string; repo: string; path: string; mediaType: { format: string } },
  ): Promise<{ data: unknown }>;
}

/** A file's text on the repository's default branch (the contents API's default ref); null when it has none. */
export async function readRaw(client: ContentsClient, owner: string, repo: string, path: string): Promise<string | null> {
  try {
    const { data } = await client.request("GET /repos/{owner}/{repo}/contents/{path}", { owner, repo, path, mediaType: { format: "raw" } });
    if (typeof data !== "string") throw new Error(`${owner}/${repo}: ${path} is a folder, not a file`);
    return data;
  } catch (error) {
    if ((error as { status?: number }).status === 404) return null;
    throw error;
  }
}

/** The repository's settings from the first file that exists, validated; the defaults when there is none. */
export async function readRepoConfig(client: ContentsClient, repo: { owner: string; repo: string }): Promise<LoadedRepoConfig> {
  const places = [
    { repo: repo.repo, path: APP_CONFIG_PATH },
    { repo: repo.repo, path: LEGACY_APP_CONFIG_PATH },
    ...(repo.repo.toLowerCase() === OWNER_CONFIG_REPO
      ? []
      : [
          { repo: OWNER_CONFIG_REPO, path: APP_CONFIG_PATH },
          { repo: OWNER_CONFIG_REPO, path: LEGACY_APP_CONFIG_PATH },
        ]),
  ];
  for (const place of places) {
    const text = await readRaw(client, repo.owner, place.repo, place.path);
    if (text === null) continue;
    const source = { repository: `${repo.owner}/${place.repo}`, path: place.path, ownersDefaults: place.repo !== repo.repo };
    let value: unknown;
    try {
      value = parse(text, { prettyErrors: false, uniqueKeys: true }) as unknown;
    } catch (error) {
      return { ok: false, problems: [`expected valid YAML: ${(error as Error).message.split("\n")[0] ?? ""}`], source };
    }
    // An empty file means the defaults, as no file does.
    return { ...parseRepoConfig(value ?? {}), source };
  }
  return { ok: true, config: DEFAULT_REPO_CONFIG, source: null };
}
