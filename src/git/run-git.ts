import { execFile } from "node:child_process";

/** A git command that failed: what it was asked, and what it said. */
export class GitError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(
      `git ${args.join(" ")} failed${exitCode === null ? "" : ` (exit ${exitCode})`}: ` +
        `${stderr.trim().split("\n").slice(-3).join(" ") || "no output"}`,
    );
    this.name = "GitError";
  }
}

/** Diffs between an image's commit and a moving main can be large; anything past this is not a source tree. */
const MAX_GIT_OUTPUT_BYTES = 512 * 1024 * 1024;

export interface GitOptions {
  signal?: AbortSignal;
  /**
   * Extra settings for this one command (an auth header for a fetch), never written to the repository.
   * They reach git through its environment (GIT_CONFIG_COUNT, GIT_CONFIG_KEY_n, GIT_CONFIG_VALUE_n),
   * not `-c` on its command line: any local process can read a command line from /proc/<pid>/cmdline,
   * while a process's environment is readable only by its own user.
   */
  config?: Record<string, string>;
  /** Exit codes that are answers rather than failures (`merge-base --is-ancestor` answers 1 for "no"). */
  okExitCodes?: readonly number[];
}

/**
 * Runs git in a repository and returns its stdout as bytes. Nothing interactive (no prompt, no
 * pager), no external diff or text conversion drivers, and C locale output so messages can be read.
 */
export async function runGit(
  repoDir: string,
  args: readonly string[],
  options: GitOptions = {},
): Promise<{ stdout: Buffer; exitCode: number }> {
  const argv = ["-C", repoDir, ...args];
  return await new Promise((resolve, reject) => {
    execFile(
      "git",
      argv,
      {
        encoding: "buffer",
        maxBuffer: MAX_GIT_OUTPUT_BYTES,
        env: {
          ...process.env,
          GIT_TERMINAL_PROMPT: "0",
          GIT_PAGER: "cat",
          LC_ALL: "C",
          GIT_OPTIONAL_LOCKS: "0",
          ...configEnvironment(options.config ?? {}),
        },
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

/**
 * Settings as git reads them from the environment (git 2.31 or newer), numbered after any the runner
 * already passes this way so that those still apply.
 */
function configEnvironment(config: Record<string, string>, inherited: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const entries = Object.entries(config);
  if (entries.length === 0) return {};
  const first = Number.parseInt(inherited.GIT_CONFIG_COUNT ?? "0", 10);
  const start = Number.isInteger(first) && first > 0 ? first : 0;
  const environment: Record<string, string> = { GIT_CONFIG_COUNT: String(start + entries.length) };
  entries.forEach(([key, value], index) => {
    environment[`GIT_CONFIG_KEY_${start + index}`] = key;
    environment[`GIT_CONFIG_VALUE_${start + index}`] = value;
  });
  return environment;
}

/** stdout as trimmed text. */
export async function gitText(repoDir: string, args: readonly string[], options: GitOptions = {}): Promise<string> {
  return (await runGit(repoDir, args, options)).stdout.toString("utf8").trim();
}
