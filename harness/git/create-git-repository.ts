import { execFile } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** A real git repository in a temporary folder, with commits made the way a project's history is. */
export interface GitRepository {
  dir: string;
  /** Runs git in the repository and returns its trimmed stdout. */
  git(...args: string[]): Promise<string>;
  /** Writes (or, with null, deletes) files, commits them on the current branch and returns the commit. */
  commit(message: string, files: Record<string, string | null>): Promise<string>;
}

/** Fixed identity and dates: the same files give the same commits on every run. */
const IDENTITY = {
  GIT_AUTHOR_NAME: "speedgate test",
  GIT_AUTHOR_EMAIL: "test@speedgate.invalid",
  GIT_COMMITTER_NAME: "speedgate test",
  GIT_COMMITTER_EMAIL: "test@speedgate.invalid",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
};

/** A new repository in `dir` (an empty folder): the bench's way in, without the test runner's temporary folders. */
export async function createGitRepository(dir: string): Promise<GitRepository> {
  let tick = 0;
  const git = async (...args: string[]): Promise<string> => {
    const date = `2026-01-01T00:${String(Math.floor(tick / 60)).padStart(2, "0")}:${String(tick % 60).padStart(2, "0")}Z`;
    const { stdout } = await run("git", ["-C", dir, ...args], {
      env: { ...process.env, ...IDENTITY, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
    });
    return stdout.trim();
  };
  await git("init", "--quiet", "--initial-branch=main");
  return {
    dir,
    git,
    async commit(message, files) {
      for (const [path, content] of Object.entries(files)) {
        const file = join(dir, path);
        if (content === null) {
          await rm(file, { force: true });
        } else {
          await mkdir(dirname(file), { recursive: true });
          await writeFile(file, content);
        }
      }
      await git("add", "--all");
      tick += 1;
      await git("commit", "--quiet", "--allow-empty", "-m", message);
      return await git("rev-parse", "HEAD");
    },
  };
}
