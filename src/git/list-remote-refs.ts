import { type RemoteAuth, buildRemoteAuthConfig } from "./build-remote-auth-config.js";
import { gitText } from "./run-git.js";

/**
 * The refs the remote itself has now, by name, with the commit each points at: `git ls-remote`
 * against the server the clone came from (through the job's token, sent as fetches send it), not
 * the refs this clone holds, which any fetch refspec could have written. Each pattern is matched
 * against the end of a ref's name, as ls-remote does (`refs/heads/*`, `refs/pull/5/head`).
 */
export async function listRemoteRefs(
  repoDir: string,
  patterns: readonly string[],
  options: RemoteAuth & { remote?: string; signal?: AbortSignal } = {},
): Promise<Map<string, string>> {
  const remote = options.remote ?? "origin";
  const output = await gitText(repoDir, ["ls-remote", "--quiet", "--", remote, ...patterns], {
    config: buildRemoteAuthConfig(options),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const refs = new Map<string, string>();
  for (const line of output.split("\n")) {
    const [sha, name] = line.split("\t");
    if (sha && name && /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(sha)) refs.set(name, sha);
  }
  return refs;
}
