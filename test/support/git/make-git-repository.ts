import { makeTempDir } from "../make-temp-dir.js";
import { type GitRepository, createGitRepository } from "../../../harness/git/create-git-repository.js";

export type { GitRepository } from "../../../harness/git/create-git-repository.js";

/** A real git repository in a temporary folder of this test file, removed with it. */
export async function makeGitRepository(prefix = "speedgate-repo-"): Promise<GitRepository> {
  return await createGitRepository(await makeTempDir(prefix));
}
