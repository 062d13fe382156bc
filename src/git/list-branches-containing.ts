import { gitText } from "./run-git.js";

/**
 * The remote's branches (`refs/remotes/<remote>/…`, as a clone or actions/checkout fetches them) whose
 * history holds `commit`: empty for a commit only a pull request ref reaches, such as a fork's head
 * fetched by its SHA. Pull request refs fetched under the remote's folder are left out, and so is the
 * remote's HEAD, which only names one of its branches.
 */
export async function listBranchesContaining(repoDir: string, commit: string, remote = "origin"): Promise<string[]> {
  const prefix = `refs/remotes/${remote}/`;
  // `--contains=` keeps a revision that starts with a dash from being read as an option.
  const refs = await gitText(repoDir, ["for-each-ref", `--contains=${commit}`, "--format=%(refname)", prefix]);
  return refs
    .split("\n")
    .filter((ref) => ref !== "" && ref !== `${prefix}HEAD` && !ref.startsWith(`${prefix}pull/`))
    .map((ref) => ref.slice("refs/remotes/".length));
}
