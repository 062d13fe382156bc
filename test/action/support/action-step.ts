import { type ChildProcess, spawn } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { afterAll } from "vitest";

/*
 * Runs a bundled entry of the action the way the GitHub runner does: a child `node dist/<entry>.js`
 * with inputs as INPUT_<NAME> variables (upper case, spaces to underscores, hyphens kept), file
 * commands through GITHUB_OUTPUT, GITHUB_STATE and GITHUB_STEP_SUMMARY, the event payload at
 * GITHUB_EVENT_PATH, and, for the post step, the saved state as STATE_<name> variables.
 */

const REPO = resolve(import.meta.dirname, "../../..");
export const DIST = join(REPO, "dist");

let staged: Promise<string> | null = null;

// Registered when a test file imports this module: the copy lives as long as that file's tests.
afterAll(async () => {
  if (staged) await rm(await staged, { recursive: true, force: true });
  staged = null;
});

/**
 * A copy of the action as the runner checks it out: action.yml, package.json and dist/, and no
 * node_modules, so the bundle must be complete. It also keeps a concurrent `npm run build` in the
 * working tree from pulling files from under a running step.
 */
export function stageAction(): Promise<string> {
  staged ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), "speedgate-action-checkout-"));
    await cp(DIST, join(dir, "dist"), { recursive: true });
    await cp(join(REPO, "action.yml"), join(dir, "action.yml"));
    await cp(join(REPO, "package.json"), join(dir, "package.json"));
    return dir;
  })();
  return staged;
}

export interface StepOptions {
  entry: "index" | "post";
  /** A folder of this test's own: the runner's files and RUNNER_TEMP go there. */
  workDir: string;
  inputs?: Record<string, string>;
  event?: { name: string; payload: unknown };
  state?: Record<string, string>;
  env?: Record<string, string>;
  cwd?: string;
}

export interface StepResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  state: Record<string, string>;
  summary: string;
}

export interface RunningStep {
  child: ChildProcess;
  /** Resolves with the first stdout line matching, or rejects when the step ends without one. */
  waitForLine(pattern: RegExp): Promise<string>;
  finished: Promise<StepResult>;
}

export function inputVariable(name: string): string {
  return `INPUT_${name.replace(/ /g, "_").toUpperCase()}`;
}

/** Reads a file-command file: `name=value` lines and `name<<DELIMITER` … `DELIMITER` blocks. */
export function parseCommandFile(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  const lines = text.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? "";
    const block = /^([^=<]+)<<(.+)$/.exec(line);
    if (block?.[1] && block[2]) {
      const body: string[] = [];
      for (index++; index < lines.length && lines[index] !== block[2]; index++) body.push(lines[index] ?? "");
      values[block[1]] = body.join("\n");
      continue;
    }
    const pair = /^([^=]+)=(.*)$/.exec(line);
    if (pair?.[1]) values[pair[1]] = pair[2] ?? "";
  }
  return values;
}

async function readOrEmpty(path: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch {
    return "";
  }
}

/** The parent's environment without anything a real runner (if the tests run in one) set for this step. */
function baseEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(INPUT_|STATE_|GITHUB_|RUNNER_|ACTIONS_)/.test(key)));
}

export async function startStep(options: StepOptions): Promise<RunningStep> {
  const files = join(options.workDir, "runner-files");
  const runnerTemp = join(options.workDir, "runner-temp");
  await mkdir(files, { recursive: true });
  await mkdir(runnerTemp, { recursive: true });
  const paths = {
    output: join(files, `output-${options.entry}`),
    state: join(files, `state-${options.entry}`),
    summary: join(files, `summary-${options.entry}`),
    event: join(files, "event.json"),
  };
  await Promise.all([writeFile(paths.output, ""), writeFile(paths.state, ""), writeFile(paths.summary, "")]);
  await writeFile(paths.event, JSON.stringify(options.event?.payload ?? {}));
  const env: NodeJS.ProcessEnv = {
    ...baseEnv(),
    GITHUB_ACTIONS: "true",
    CI: "true",
    GITHUB_OUTPUT: paths.output,
    GITHUB_STATE: paths.state,
    GITHUB_STEP_SUMMARY: paths.summary,
    GITHUB_EVENT_PATH: paths.event,
    GITHUB_EVENT_NAME: options.event?.name ?? "pull_request",
    GITHUB_REPOSITORY: "Codertocat/Hello-World",
    GITHUB_RUN_ID: "4242",
    GITHUB_RUN_ATTEMPT: "1",
    GITHUB_SERVER_URL: "https://github.com",
    GITHUB_API_URL: "https://api.github.com",
    GITHUB_WORKSPACE: options.cwd ?? options.workDir,
    RUNNER_TEMP: runnerTemp,
    RUNNER_NAME: "test-runner",
    ...Object.fromEntries(Object.entries(options.inputs ?? {}).map(([name, value]) => [inputVariable(name), value])),
    ...Object.fromEntries(Object.entries(options.state ?? {}).map(([name, value]) => [`STATE_${name}`, value])),
    ...options.env,
  };
  const child = spawn(process.execPath, [join(await stageAction(), "dist", `${options.entry}.js`)], {
    cwd: options.cwd ?? options.workDir,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  const waiters: Array<{ pattern: RegExp; resolve: (line: string) => void }> = [];
  createInterface({ input: child.stdout }).on("line", (line) => {
    stdout += `${line}\n`;
    for (const waiter of waiters.splice(0)) {
      if (waiter.pattern.test(line)) waiter.resolve(line);
      else waiters.push(waiter);
    }
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => {
    child.on("close", (code, signal) => done({ code, signal }));
  });
  const finished = exited.then(async ({ code, signal }) => ({
    exitCode: code,
    signal,
    stdout,
    stderr,
    outputs: parseCommandFile(await readOrEmpty(paths.output)),
    state: parseCommandFile(await readOrEmpty(paths.state)),
    summary: await readOrEmpty(paths.summary),
  }));
  return {
    child,
    finished,
    waitForLine(pattern) {
      const seen = stdout.split("\n").find((line) => pattern.test(line));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolveLine, reject) => {
        waiters.push({ pattern, resolve: resolveLine });
        void exited.then(() => reject(new Error(`the step ended without printing a line matching ${pattern}:\n${stdout}\n${stderr}`)));
      });
    },
  };
}

export async function runStep(options: StepOptions): Promise<StepResult> {
  return (await startStep(options)).finished;
}
