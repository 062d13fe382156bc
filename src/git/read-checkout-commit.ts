import { findRepositoryRoot, resolveCommit } from "./resolve-commit.js";
import { runGit } from "./run-git.js";

/** A folder's commit as a build would take it, or why it has none to vouch for. */
export type CheckoutCommit = { commit: string } | { none: string };

/**
 * The commit a build context holds: HEAD of the git checkout the folder is in, when no tracked file
 * under the folder differs from it. A built image is labelled with it so that base/head rounds can
 * read the image's commit; a changed tree would make that label a claim about code it does not hold.
 * Untracked files are not counted: a checkout's stray build outputs do not change what HEAD says.
 */
export async function readCheckoutCommit(dir: string, signal?: AbortSignal): Promise<CheckoutCommit> {
  const root = await findRepositoryRoot(dir);
  if (root === null) return { none: `${dir} is not in a git checkout` };
  const commit = await resolveCommit(dir, "HEAD", signal);
  if (commit === null) return { none: `the checkout at ${root} has no commit yet` };
  const { stdout } = await runGit(dir, ["status", "--porcelain", "--untracked-files=no", "--", "."], signal ? { signal } : {});
  const changed = stdout
    .toString("utf8")
    .split("\n")
    .filter((line) => line.trim() !== "");
  if (changed.length > 0)
    return {
      none:
        `${changed.length} tracked file${changed.length === 1 ? "" : "s"} under ${dir} differ${changed.length === 1 ? "s" : ""} from ` +
        `its commit ${commit.slice(0, 12)} (${changed[0]?.slice(3) ?? ""}${changed.length > 1 ? ", …" : ""})`,
    };
  return { commit };
}
