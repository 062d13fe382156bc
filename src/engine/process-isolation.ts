import { allowedHostEnvironment } from "./allowed-host-environment.js";
import { ENGINE_INIT_SCRIPT } from "./engine-init-script.js";
import { resolveProgram } from "./resolve-program.js";
import { runTool } from "./run-tool.js";

/**
 * How host engines (runtime: process) are contained. In a namespace, everything an engine starts
 * dies with it (the kernel ends a PID namespace with its first process, setsid or not), it sees only
 * its own processes in a private /proc (not the action's environment in /proc/<parent>/environ), and
 * it runs without capabilities, so it cannot unmount that /proc to look at the host's. `none` is the
 * fallback where the kernel or util-linux allows neither: process groups only, said loudly.
 */
export type ProcessIsolation =
  | {
      kind: "pid-namespace" | "user-namespace";
      /** The argv before the engine's own: unshare, setpriv and the Node that runs the namespace's init. */
      prefix: string[];
      /** For the log, such as "a PID namespace of its own (unshare --pid --fork --kill-child --mount-proc)". */
      description: string;
    }
  | { kind: "none"; reason: string };

/** Programs the isolation needs, by name (looked up on PATH) or path; tests point them elsewhere. */
export interface IsolationTools {
  unshare: string;
  setpriv: string;
  node: string;
}

const NAMESPACE_FLAGS = ["--pid", "--fork", "--kill-child", "--mount-proc"];

/**
 * Tried in order. As root, a PID namespace needs nothing more. Otherwise a user namespace makes the
 * PID namespace possible: mapping the runner's own uid keeps files and caches owned as before
 * (util-linux 2.38 and later), mapping root is the older spelling.
 */
const VARIANTS: ReadonlyArray<{ kind: "pid-namespace" | "user-namespace"; flags: string[] }> = [
  { kind: "pid-namespace", flags: NAMESPACE_FLAGS },
  { kind: "user-namespace", flags: ["--user", "--map-current-user", ...NAMESPACE_FLAGS] },
  { kind: "user-namespace", flags: ["--user", "--map-root-user", ...NAMESPACE_FLAGS] },
];

/** Root keeps its uid but no capability: with none, the private /proc cannot be unmounted. */
const DROP_CAPABILITIES = ["--bounding-set", "-all", "--inh-caps", "-all"];

/** Run as the namespace's first process: what it sees is what an engine would see. */
const PROBE_SCRIPT = String.raw`const fs = require("node:fs");
const visible = fs.readdirSync("/proc").filter((name) => /^\d+$/.test(name));
const capabilities = /^CapEff:\s*([0-9a-f]+)$/m.exec(fs.readFileSync("/proc/self/status", "utf8"));
process.stdout.write(JSON.stringify({ pid: process.pid, visible, capabilities: capabilities ? capabilities[1] : null }) + "\n");
`;

const PROBE_TIMEOUT_MS = 15_000;

function lastLine(text: string): string {
  return text.trim().split("\n").pop() ?? "";
}

/** Why a variant's probe does not give the isolation it promises, or null when it does. */
function probeProblem(output: string, exitCode: number | null): string | null {
  const line = lastLine(output);
  if (exitCode !== 0) return line || `exited with code ${exitCode ?? "none"}`;
  let seen: { pid?: unknown; visible?: unknown; capabilities?: unknown };
  try {
    seen = JSON.parse(line) as typeof seen;
  } catch {
    return `unexpected output: ${line.slice(0, 200)}`;
  }
  if (seen.pid !== 1) return `the engine would not be the namespace's first process (pid ${String(seen.pid)})`;
  if (!Array.isArray(seen.visible) || seen.visible.length !== 1) return "/proc still shows processes outside the namespace";
  if (typeof seen.capabilities !== "string" || !/^0+$/.test(seen.capabilities))
    return `the engine would keep capabilities (${String(seen.capabilities)})`;
  return null;
}

export interface ProbeOptions {
  tools?: Partial<IsolationTools>;
  /** Only these kinds are tried (tests check each kind on one machine). */
  kinds?: ReadonlyArray<"pid-namespace" | "user-namespace">;
}

/** Finds the first variant this machine allows, by running a probe in it (a few tens of milliseconds each). */
export async function probeProcessIsolation(options: ProbeOptions = {}): Promise<ProcessIsolation> {
  const tools = options.tools ?? {};
  const hostPath = process.env.PATH;
  const cwd = process.cwd();
  const unshare = resolveProgram(tools.unshare ?? "unshare", { cwd, path: hostPath });
  const setpriv = resolveProgram(tools.setpriv ?? "setpriv", { cwd, path: hostPath });
  const node = tools.node ?? process.execPath;
  if (!unshare || !setpriv) {
    const missing = [unshare ? null : (tools.unshare ?? "unshare"), setpriv ? null : (tools.setpriv ?? "setpriv")].filter(
      (name) => name !== null,
    );
    return { kind: "none", reason: `${missing.join(" and ")} not found on PATH (util-linux)` };
  }
  const problems: string[] = [];
  for (const variant of VARIANTS.filter((candidate) => !options.kinds || options.kinds.includes(candidate.kind))) {
    const prefix = [unshare, ...variant.flags, "--", setpriv, ...DROP_CAPABILITIES, "--", node];
    const result = await runTool([...prefix, "-e", PROBE_SCRIPT], {
      cwd,
      env: allowedHostEnvironment(process.env),
      timeoutMs: PROBE_TIMEOUT_MS,
    });
    const problem = result.timedOut ? `no answer within ${PROBE_TIMEOUT_MS / 1000} s` : probeProblem(result.output, result.exitCode);
    const spelled = `unshare ${variant.flags.join(" ")}`;
    if (problem === null) {
      const what = variant.kind === "pid-namespace" ? "a PID namespace of its own" : "user and PID namespaces of its own";
      return { kind: variant.kind, prefix, description: `${what} (${spelled}), without capabilities` };
    }
    problems.push(`${spelled}: ${problem}`);
  }
  return { kind: "none", reason: problems.join("; ") };
}

let detected: Promise<ProcessIsolation> | null = null;

/** The isolation of this machine, probed once per process. */
export function detectProcessIsolation(): Promise<ProcessIsolation> {
  detected ??= probeProcessIsolation();
  return detected;
}

/** The argv that runs `argv` under the isolation: inside the namespace, behind its init. */
export function isolateCommand(isolation: ProcessIsolation, argv: readonly string[]): string[] {
  if (isolation.kind === "none") return [...argv];
  return [...isolation.prefix, "-e", ENGINE_INIT_SCRIPT, "--", ...argv];
}

/** The warning said when engines cannot be isolated. */
export function isolationFallbackWarning(isolation: ProcessIsolation & { kind: "none" }): string {
  return (
    "runtime process: engines are NOT isolated on this machine, only put in process groups: a process an engine starts with " +
    "setsid can outlive it, and an engine can read the environment of speedgate and its parents in /proc. Use runtime: docker " +
    `for code you do not trust. Why: ${isolation.reason}`
  );
}
