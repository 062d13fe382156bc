/** Who may talk to a remote for one git command: the job's token and the server it belongs to. */
export interface RemoteAuth {
  /** Sent as an HTTP authorization header for this command only, as actions/checkout does; never written to the repository's config. */
  token?: string;
  /** The server the token is for, such as https://github.com: the header goes to no other host. */
  serverUrl?: string;
}

/**
 * The settings that send the token to its server for one git command (a fetch, an ls-remote), for
 * runGit's `config`, which passes them through git's environment rather than its command line.
 */
export function buildRemoteAuthConfig(auth: RemoteAuth): Record<string, string> {
  if (!auth.token) return {};
  const server = (auth.serverUrl ?? "https://github.com").replace(/\/$/, "");
  return { [`http.${server}/.extraheader`]: `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${auth.token}`).toString("base64")}` };
}
