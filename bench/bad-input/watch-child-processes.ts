import childProcess from "node:child_process";
import { syncBuiltinESMExports } from "node:module";

const WATCHED = ["spawn", "spawnSync", "exec", "execSync", "execFile", "execFileSync", "fork"] as const;

/**
 * Records every child process started in this process until restored: the functions of
 * node:child_process are wrapped and the ESM named exports resynced, so both import styles see the
 * wrapper. A /rescore must never reach a shell or any other program.
 */
export function watchChildProcesses(): { calls: string[]; restore: () => void } {
  const calls: string[] = [];
  const module = childProcess as unknown as Record<string, (...args: unknown[]) => unknown>;
  const originals = new Map<string, (...args: unknown[]) => unknown>();
  for (const name of WATCHED) {
    const original = module[name];
    if (typeof original !== "function") continue;
    originals.set(name, original);
    module[name] = (...args: unknown[]) => {
      calls.push(`${name} ${JSON.stringify(args[0])}`);
      return original(...args);
    };
  }
  syncBuiltinESMExports();
  return {
    calls,
    restore: () => {
      for (const [name, original] of originals) module[name] = original;
      syncBuiltinESMExports();
    },
  };
}
