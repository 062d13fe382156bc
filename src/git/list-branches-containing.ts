import { gitText, runGit } from "./run-git.js";

const HEADS = "refs/heads/";

export interface BranchesContaining {
  /** The branches holding the commit, as the clone names them (`origin/main`). */
  branches: string[];
  /**
   * Tips the remote lists for branches whose older tip in the clone holds the commit, but which the
   * clone lacks (the branch moved on since the checkout): fetched, they may make the commit a branch's.
   */
  missingTips: string[];
}

/**
 * The repository's branches whose history holds `commit`, named as the clone has them
 * (`origin/main`). A branch counts only when the remote's own branch list names it (`branches`:
 * `refs/heads/<name>` to its tip, from listRemoteRefs) and the clone's `refs/remotes/<remote>/<name>`
 * is that tip, or an older commit of it. Anything else under the remote's folder is left out,
 * whatever its name: a fetch refspec can write any ref there (CI's common one for pull requests maps
 * refs/pull/N/head to refs/remotes/origin/pr/N, a fork's head at `origin/pr/5`; another could as well
 * write it at `origin/main`), and so can a workflow's own git commands.
 */
export async function listBranchesContaining(
  repoDir: string,
  commit: string,
  branches: ReadonlyMap<string, string>,
  remote = "origin",
): Promise<BranchesContaining> {
  const prefix = `refs/remotes/${remote}/`;
  // `--contains=` keeps a revision that starts with a dash from being read as an option.
  const refs = await gitText(repoDir, ["for-each-ref", `--contains=${commit}`, "--format=%(objectname) %(refname)", prefix]);
  const found: BranchesContaining = { branches: [], missingTips: [] };
  // A branch's tip itself (one pushed since the checkout, its commit fetched by SHA) needs no ref of the clone.
  for (const [name, tip] of branches) {
    if (tip === commit && name.startsWith(HEADS)) found.branches.push(`${remote}/${name.slice(HEADS.length)}`);
  }
  for (const line of refs.split("\n")) {
    const [sha = "", ref = ""] = line.split(" ");
    const tip = branches.get(`${HEADS}${ref.slice(prefix.length)}`);
    if (!ref.startsWith(prefix) || tip === undefined) continue;
    const older = sha === tip ? "yes" : await isOlderCommitOf(repoDir, sha, tip);
    const name = ref.slice("refs/remotes/".length);
    if (older === "yes" && !found.branches.includes(name)) found.branches.push(name);
    else if (older === "unknown") found.missingTips.push(tip);
  }
  return found;
}

/** Whether `older` is in the history of `tip`, a branch that moved on since the clone fetched it: unknown while the clone lacks `tip`. */
async function isOlderCommitOf(repoDir: string, older: string, tip: string): Promise<"yes" | "no" | "unknown"> {
  if ((await runGit(repoDir, ["cat-file", "-e", `${tip}^{commit}`], { okExitCodes: [1, 128] })).exitCode !== 0) return "unknown";
  const { exitCode } = await runGit(repoDir, ["merge-base", "--is-ancestor", older, tip], { okExitCodes: [1] });
  return exitCode === 0 ? "yes" : "no";
}
