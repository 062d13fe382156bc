import { type RoundConfigBars, readRoundConfigBars } from "../src/github/read-round-config-bars.js";
import { type ContentsClient, readRaw } from "./read-repo-config.js";

/** The default branch's round config bars: null when the settings name none or the branch has no such file. */
export type LoadedRoundConfigBars = { ok: true; bars: RoundConfigBars | null } | { ok: false; path: string; problems: string[] };

/**
 * The bars of the round config the app's settings name (`roundConfig`), read from the default branch as the
 * settings are: a pull request that edits its own round config changes the round it runs, never the bar the
 * app gates it with.
 */
export async function loadRoundConfigBars(
  client: ContentsClient,
  repo: { owner: string; repo: string },
  path: string | null,
): Promise<LoadedRoundConfigBars> {
  if (path === null) return { ok: true, bars: null };
  const text = await readRaw(client, repo.owner, repo.repo, path);
  if (text === null) return { ok: true, bars: null };
  const read = readRoundConfigBars(text, path);
  return read.ok ? read : { ok: false, path, problems: read.problems };
}
