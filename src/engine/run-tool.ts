import { spawn } from "node:child_process";

export interface ToolResult {
  /** null when the tool could not be started at all (ENOENT) or was killed. */
  exitCode: number | null;
  signal: string | null;
  /** stdout and stderr interleaved, as a person running it would have seen. */
  output: string;
  /** Set when the program does not exist. */
  missing: boolean;
  timedOut: boolean;
}

const MAX_OUTPUT_CHARS = 256 * 1024;

/**
 * Runs a short-lived helper (git apply, patch, a postPatch build step) in its own process group, so
 * cancelling or timing it out ends everything it started.
 */
export async function runTool(
  argv: readonly string[],
  options: {
    cwd: string;
    env?: NodeJS.ProcessEnv;
    signal?: AbortSignal;
    timeoutMs?: number;
    input?: Buffer;
    /** Told the tool's process group once it runs (the round's keeper watches it), and again once it is over. */
    onGroup?: (pgid: number, running: boolean) => void;
  },
): Promise<ToolResult> {
  const [program, ...args] = argv;
  if (!program) throw new Error("runTool: expected a program to run");
  return await new Promise((resolve) => {
    let output = "";
    let timedOut = false;
    const child = spawn(program, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      detached: true,
      stdio: [options.input ? "pipe" : "ignore", "pipe", "pipe"],
    });
    const append = (chunk: Buffer): void => {
      if (output.length < MAX_OUTPUT_CHARS) output += chunk.toString("utf8");
    };
    child.once("spawn", () => {
      if (child.pid !== undefined) options.onGroup?.(child.pid, true);
    });
    child.stdout?.on("data", append);
    child.stderr?.on("data", append);
    const killGroup = (): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    };
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            killGroup();
          }, options.timeoutMs);
    const onAbort = (): void => killGroup();
    options.signal?.addEventListener("abort", onAbort, { once: true });
    let settled = false;
    const finish = (result: Omit<ToolResult, "output" | "timedOut">): void => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      if (child.pid !== undefined) options.onGroup?.(child.pid, false);
      resolve({ ...result, output, timedOut });
    };
    child.once("error", (error: NodeJS.ErrnoException) => {
      output += `${error.message}\n`;
      finish({ exitCode: null, signal: null, missing: error.code === "ENOENT" });
    });
    child.once("close", (exitCode, signal) => finish({ exitCode, signal, missing: false }));
    if (options.input && child.stdin) {
      child.stdin.on("error", () => undefined);
      child.stdin.end(options.input);
    }
  });
}
