import { gitText } from "./run-git.js";

/** One commit of main's first-parent history: its SHA, its committer time and its subject. */
export interface FirstParentCommit {
  sha: string;
  /** Committer time, ISO 8601. */
  committedAt: string;
  subject: string;
}

/** A range whose good end is not on the bad end's first-parent history: not a range of main's merges. */
export class NotFirstParentError extends Error {
  constructor(
    readonly good: string,
    readonly bad: string,
  ) {
    super(
      `${good.slice(0, 12)} is not on the first-parent history of ${bad.slice(0, 12)}: a bisection of main needs a good commit ` +
        `that main itself was at (a merge commit or a commit pushed to main), not one of a merged branch`,
    );
    this.name = "NotFirstParentError";
  }
}

const FIELD = "\x1f";

/**
 * main's first-parent history from `good` to `bad`, both included, oldest first: the merges a
 * bisection steps through (a merged branch's own commits are never stepped on: main was never at them).
 * Throws NotFirstParentError when `good` is not on that history.
 */
export async function listFirstParentCommits(
  repoDir: string,
  good: string,
  bad: string,
  signal?: AbortSignal,
): Promise<FirstParentCommit[]> {
  const format = `--format=%H${FIELD}%cI${FIELD}%s`;
  const read = async (args: string[]): Promise<FirstParentCommit[]> =>
    (await gitText(repoDir, ["log", "--first-parent", "--reverse", format, ...args], signal ? { signal } : {}))
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => {
        const [sha = "", committedAt = "", subject = ""] = line.split(FIELD);
        return { sha, committedAt, subject };
      });
  const [start] = await read(["-1", "--no-walk", good]);
  if (!start) throw new NotFirstParentError(good, bad);
  if (start.sha === bad) return [start];
  const after = await read([`${good}..${bad}`]);
  // The oldest commit listed must step from good itself: otherwise good lies on a merged branch, not on main.
  const first = after[0];
  if (!first) throw new NotFirstParentError(good, bad);
  const parent = await gitText(repoDir, ["rev-parse", "--verify", `${first.sha}^1`], signal ? { signal } : {});
  if (parent !== start.sha) throw new NotFirstParentError(good, bad);
  return [start, ...after];
}

/** The newest first-parent commit of `head` committed at least `days` days before `head` itself, or null when main is younger. */
export async function findFirstParentCommitBefore(
  repoDir: string,
  head: string,
  days: number,
  signal?: AbortSignal,
): Promise<string | null> {
  const options = signal ? { signal } : {};
  const headTime = Number(await gitText(repoDir, ["log", "-1", "--format=%ct", head], options));
  const before = headTime - days * 86_400;
  const sha = await gitText(repoDir, ["rev-list", "-1", "--first-parent", `--before=${before}`, head], options);
  return /^[0-9a-f]{40}$/.test(sha) ? sha : null;
}
