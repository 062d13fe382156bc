import { type GitRepository, createGitRepository } from "./create-git-repository.js";

/*
 * An engine repository whose main grows by merged pull requests, as SGLang's and vLLM's does: each merge
 * is a merge commit (--no-ff) of a branch with one commit, so main's first-parent history is the good
 * commit and then one merge per pull request. What the watch and a bisection step through.
 */

export interface MainMerge {
  title: string;
  /** What the pull request's one commit writes (null deletes). */
  files: Record<string, string | null>;
}

export interface MergedPullRequest {
  /** 1-based: merge 11 is the eleventh, pull request #11. */
  number: number;
  title: string;
  /** The merge commit on main. */
  sha: string;
  /** The pull request's own commit, main's merge's second parent. */
  head: string;
  branch: string;
}

export interface MainHistory {
  repo: GitRepository;
  /** main before the first merge. */
  good: string;
  merges: MergedPullRequest[];
}

export async function buildMainHistory(
  dir: string,
  options: { initial: Record<string, string>; merges: readonly MainMerge[]; tag?: string },
): Promise<MainHistory> {
  const repo = await createGitRepository(dir);
  const good = await repo.commit("the engine", options.initial);
  if (options.tag) await repo.git("tag", options.tag, good);
  const merges: MergedPullRequest[] = [];
  for (const [index, merge] of options.merges.entries()) {
    const number = index + 1;
    const branch = `pr-${number}`;
    await repo.git("checkout", "--quiet", "-b", branch, "main");
    const head = await repo.commit(merge.title, merge.files);
    await repo.git("checkout", "--quiet", "main");
    await repo.git("merge", "--quiet", "--no-ff", "-m", `Merge pull request #${number} from ${branch}\n\n${merge.title}`, branch);
    merges.push({ number, title: merge.title, sha: await repo.git("rev-parse", "HEAD"), head, branch });
  }
  return { repo, good, merges };
}
