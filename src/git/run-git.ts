import { execFile } from "node:child_process";

/** A git command that failed: what it was asked, and what it said. */
export class GitError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(`git ${args.join(" ")} failed${exitCode === null ? "" : ` (exit ${exitCode})`}: ${stderr.trim().split("\n").slice(-3).join(" ") || "no output"}`);
    this.name = "GitError";
  }
}

/** Diffs between an image's commit and a moving main can be large; anything past this is not a source tree. */
const MAX_GIT_OUTPUT_BYTES = 512 * 1024 * 1024;

export interface GitOptions {
  signal?: AbortSignal;
  /** Extra `-c key=value` settings for this one command (an auth header for a fetch), never written to the repository. */
  config?: Record<string, string>;
  /** Exit codes that are answers rather than failures (`merge-base --is-ancestor` answers 1 for "no"). */
  okExitCodes?: readonly number[];
}

/**
 * Runs git in a repository and returns its stdout as bytes. Nothing interactive (no prompt, no
 * pager), no external diff or text conversion drivers, and C locale output so messages can be read.
 */
export async function runGit(repoDir: string, args: readonly string[], options: GitOptions = {}): Promise<{ stdout: Buffer; exitCode: number }> {
  const config = Object.entries(options.config ?? {}).flatMap(([key, value]) => ["-c", `${key}=${value}`]);
  const argv = ["-C", repoDir, ...config, ...args];
  return await new Promise((resolve, reject) => {
    execFile(
      "git",
      argv,
      {
        encoding: "buffer",
        maxBuffer: MAX_GIT_OUTPUT_BYTES,
        env: { ...process.env, GIT_TERMINAL_PROMPT: "0", GIT_PAGER: "cat", LC_ALL: "C", GIT_OPTIONAL_LOCKS: "0" },
        ...(options.signal ? { signal: options.signal } : {}),
      },
      (error, stdout, stderr) => {
        if (!error) return resolve({ stdout, exitCode: 0 });
        const code = typeof error.code === "number" ? error.code : null;
        if (code !== null && options.okExitCodes?.includes(code)) return resolve({ stdout, exitCode: code });
        if ((error as NodeJS.ErrnoException).code === "ENOENT") {
          return reject(new GitError(args, null, "git is not installed (the command git was not found on PATH)"));
        }
        if (options.signal?.aborted) {
          const reason: unknown = options.signal.reason;
          return reject(reason instanceof Error ? reason : new Error("git was cancelled"));
        }
        reject(new GitError(args, code, stderr.toString("utf8")));
      },
    );
  });
}

/** stdout as trimmed text. */
export async function gitText(repoDir: string, args: readonly string[], options: GitOptions = {}): Promise<string> {
  return (await runGit(repoDir, args, options)).stdout.toString("utf8").trim();
}
