import { existsSync, readlinkSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { ProcessRuntime } from "../../src/engine/process-runtime.js";
import type { RunningEngine } from "../../src/engine/engine-runtime.js";
import { waitUntilHealthy } from "../../src/engine/wait-until-healthy.js";
import { EngineFailureError } from "../../src/vocabulary/engine-failure.js";
import { createRecordingLogger, silentLogger } from "../../src/logger.js";
import type { ProcessIsolation } from "../../src/engine/process-isolation.js";
import { MARK_VARIABLE, markedProcesses, newMark } from "../support/find-marked-processes.js";
import { getFreePort } from "../support/get-free-port.js";
import { makeProcessRound } from "../round/support/make-round.js";
import { isRunning } from "./support/is-running.js";
import { makeTempDir } from "../support/make-temp-dir.js";
import { waitForLogMatch } from "./support/wait-for-log-match.js";

const fakeEngine = fileURLToPath(new URL("./fixtures/fake-engine.mjs", import.meta.url));
const runtimes: ProcessRuntime[] = [];

async function startFake(
  mode: string,
  options: {
    health?: { timeoutS?: number };
    env?: Record<string, string>;
    isolation?: ProcessIsolation;
    logger?: typeof silentLogger;
  } = {},
) {
  const port = await getFreePort();
  const mark = newMark();
  const round = makeProcessRound({
    port,
    command: ["{node}", fakeEngine, mode, "{port}"],
    health: options.health,
    env: { [MARK_VARIABLE]: mark, ...options.env },
  });
  const isolation = options.isolation ? { isolation: Promise.resolve(options.isolation) } : {};
  const runtime = new ProcessRuntime(round, { logger: options.logger ?? silentLogger, runId: "test" }, isolation);
  runtimes.push(runtime);
  const engine = await runtime.start("baseline", new AbortController().signal);
  return { runtime, engine, round, mark };
}

function waitHealthy(engine: RunningEngine, timeoutS = 30, signal = new AbortController().signal) {
  return waitUntilHealthy({ engine, path: "/health", timeoutS, intervalMs: 20, signal });
}

async function failureOf(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(EngineFailureError);
  return (error as EngineFailureError).failure;
}

afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.dispose()));
});

describe("process runtime", () => {
  it("gives the engine the allowed part of the host's environment and the config's env, nothing else", async () => {
    const host = {
      GITHUB_TOKEN: "ghs_secret",
      "INPUT_GITHUB-TOKEN": "ghs_secret",
      ACTIONS_RUNTIME_TOKEN: "runtime-secret",
      AWS_SECRET_ACCESS_KEY: "aws-secret",
      GITHUB_ENV: "/runner/_temp/set_env",
      CUDA_VISIBLE_DEVICES: "3",
      NCCL_DEBUG: "INFO",
      LC_ALL: "C.UTF-8",
    };
    Object.assign(process.env, host);
    try {
      const { engine, mark } = await startFake("print-env", { env: { MODEL_DIR: "/models/m" } });
      const [, json] = await waitForLogMatch(engine, /^env (.*)$/);
      const env = JSON.parse(json ?? "{}") as Record<string, string>;
      expect(env).toMatchObject({
        CUDA_VISIBLE_DEVICES: "3",
        NCCL_DEBUG: "INFO",
        LC_ALL: "C.UTF-8",
        MODEL_DIR: "/models/m",
        [MARK_VARIABLE]: mark,
        PATH: process.env.PATH,
      });
      for (const name of ["GITHUB_TOKEN", "INPUT_GITHUB-TOKEN", "ACTIONS_RUNTIME_TOKEN", "AWS_SECRET_ACCESS_KEY", "GITHUB_ENV"])
        expect(env).not.toHaveProperty(name);
      const allowed = new RegExp(
        `^(${["PATH", "HOME", "USER", "LOGNAME", "TMPDIR", "TZ", "LANG", "LANGUAGE", "LD_LIBRARY_PATH", "RUNNER_TRACKING_ID"].join("|")}|` +
          `LC_.*|CUDA_.*|NVIDIA_.*|NCCL_.*|MODEL_DIR|SPEEDGATE_TEST_MARK)$`,
      );
      expect(Object.keys(env).filter((name) => !allowed.test(name))).toEqual([]);
    } finally {
      for (const name of Object.keys(host)) delete process.env[name];
    }
  });

  it("starts an engine, reports it healthy and stops it", async () => {
    const { engine } = await startFake("healthy");
    const { healthyAfterMs } = await waitHealthy(engine);
    expect(healthyAfterMs).toBeGreaterThanOrEqual(0);
    const pid = (engine as RunningEngine & { pid: number }).pid;
    await engine.stop();
    await engine.stop();
    expect(isRunning(pid)).toBe(false);
    const exit = await engine.exited;
    expect(exit.signal).toBe("SIGTERM");
  });

  it("reports an engine that dies while loading with its exit code and classified log, not at the timeout", async () => {
    const { engine } = await startFake("crash");
    const failure = await failureOf(waitHealthy(engine, 600));
    expect(failure).toMatchObject({ engine: "baseline", stage: "startup", kind: "import_error", exitCode: 1 });
    expect(failure.summary).toContain("ModuleNotFoundError: No module named 'missing_module'");
    expect(failure.summary).toContain("/src/vllm/engine.py, line 12");
    expect(failure.logTail).toContain('  File "/src/vllm/engine.py", line 12, in <module>');
  });

  it("reports model_not_found for an engine that exits before its log says why, when its command's -m is not in its folder", async () => {
    const cwd = await makeTempDir("speedgate-models-");
    await writeFile(join(cwd, "tiny.gguf"), "GGUF");
    const silent = (model: string) => ["sh", "-c", "echo loading; exit 1", "sh", "-m", model, "--port", "{port}"];
    const start = async (model: string) => {
      const round = makeProcessRound({ port: await getFreePort(), command: silent(model), cwd, overrides: { engine: "llama.cpp" } });
      const runtime = new ProcessRuntime(round, { logger: silentLogger, runId: "test" });
      runtimes.push(runtime);
      return await failureOf(
        waitUntilHealthy({
          engine: await runtime.start("baseline", new AbortController().signal),
          path: "/health",
          timeoutS: 600,
          intervalMs: 20,
          signal: new AbortController().signal,
          engineFamily: "llama.cpp",
        }),
      );
    };
    expect(await start("missing.gguf")).toMatchObject({
      kind: "model_not_found",
      summary:
        "-m missing.gguf: no such file or folder on the runner (found by speedgate after the engine exited; its log does not say why)",
    });
    expect(await start("tiny.gguf")).toMatchObject({ kind: "exited", summary: "loading" });
  });

  it("wakes from a long poll interval as soon as the engine exits", async () => {
    const { engine } = await startFake("exit-later");
    await waitForLogMatch(engine, /listening/);
    // With a 60 s interval, only the exit can end this wait before the test's own timeout.
    const failure = await failureOf(
      waitUntilHealthy({ engine, path: "/health", timeoutS: 600, intervalMs: 60_000, signal: new AbortController().signal }),
    );
    expect(failure).toMatchObject({ stage: "startup", kind: "nccl_error", exitCode: 3 });
  });

  it("gives up with startup_timeout when the engine never answers 200", async () => {
    const { engine } = await startFake("never-healthy");
    const failure = await failureOf(waitHealthy(engine, 0.3));
    expect(failure).toMatchObject({ stage: "startup", kind: "startup_timeout", exitCode: null });
    expect(failure.label).toContain("0.3 s");
  });

  it("stops waiting when cancelled", async () => {
    const { engine } = await startFake("never-healthy");
    const controller = new AbortController();
    const waiting = waitHealthy(engine, 600, controller.signal);
    await waitForLogMatch(engine, /listening/);
    controller.abort(new Error("received SIGINT"));
    const failure = await failureOf(waiting);
    expect(failure).toMatchObject({ kind: "cancelled", summary: "received SIGINT" });
  });

  it("kills an engine that ignores SIGTERM after the grace period", async () => {
    const { engine } = await startFake("ignore-sigterm");
    await waitHealthy(engine);
    await engine.stop();
    const exit = await engine.exited;
    expect(exit.signal).toBe("SIGKILL");
  });

  it("ends the engine's children with it, and those that left its process group (setsid) too", async () => {
    const { engine, mark } = await startFake("setsid-child");
    await waitHealthy(engine);
    await waitForLogMatch(engine, /setsid child ready/);
    // The launcher, the namespace's init, the engine and its setsid child carry the config's mark.
    expect(markedProcesses(mark).length).toBeGreaterThanOrEqual(3);
    await engine.stop();
    expect(markedProcesses(mark)).toEqual([]);
  });

  it("sees only its own processes, cannot unmount its /proc to look at the host's, and answers to the group's SIGTERM", async () => {
    const { engine } = await startFake("look-around");
    await waitHealthy(engine);
    const [, json] = await waitForLogMatch(engine, /^look-around (.*)$/);
    const seen = JSON.parse(json ?? "{}") as { pid: number; ppid: number; visible: string[]; umountStatus: number | null };
    // The engine's parent is the namespace's init (pid 1); speedgate and the runner are not there to be read.
    expect(seen.ppid).toBe(1);
    expect(seen.visible.every((pid) => Number(pid) < 10)).toBe(true);
    expect(seen.visible).not.toContain(String(process.pid));
    expect(seen.umountStatus).not.toBe(0);
    await engine.stop();
    expect((await engine.exited).signal).toBe("SIGTERM");
  });

  it("refuses to start on a port something already listens on, which would answer the health check", async () => {
    const { engine, round } = await startFake("healthy");
    await waitHealthy(engine);
    const second = new ProcessRuntime(round, { logger: silentLogger, runId: "t" });
    runtimes.push(second);
    const failure = await failureOf(second.start("candidate", new AbortController().signal));
    expect(failure).toMatchObject({ engine: "candidate", stage: "startup", kind: "port_in_use" });
    expect(failure.summary).toContain(String(round.config.port));
    // speedgate cleanup --stale removes containers: a process round is pointed at the process on the port.
    expect(failure.hint).toContain("`ss -ltnp` names its process");
    expect(failure.hint).not.toContain("cleanup");
  });

  it("reports a leader that dies while its worker holds the pipes, and nothing of it is left by then", async () => {
    const { engine, mark } = await startFake("crash-orphan");
    await waitForLogMatch(engine, /worker ready (\d+)/);
    const failure = await failureOf(waitHealthy(engine, 600));
    expect(failure).toMatchObject({ stage: "startup", kind: "exited", exitCode: 1 });
    expect(failure.summary).toMatch(/^RuntimeError: leader exiting, worker \d+ left behind$/);
    // The worker died with the leader's namespace, before the exit was reported.
    expect(markedProcesses(mark)).toEqual([]);
  });

  it("reports a command that does not exist as a startup failure", async () => {
    const port = await getFreePort();
    const runtime = new ProcessRuntime(makeProcessRound({ port, command: ["speedgate-no-such-program-x"] }), {
      logger: silentLogger,
      runId: "t",
    });
    runtimes.push(runtime);
    const failure = await failureOf(runtime.start("baseline", new AbortController().signal));
    expect(failure).toMatchObject({ stage: "startup", kind: "exited" });
    expect(failure.summary).toContain("ENOENT");
  });
});

describe("process runtime where namespaces are not allowed (the fallback)", () => {
  const none: ProcessIsolation = { kind: "none", reason: "unshare: unshare failed: Operation not permitted" };

  it("warns once, loudly, and still ends the engine's process group, grandchildren included", async () => {
    const logger = createRecordingLogger();
    const { engine } = await startFake("spawn-child", { isolation: none, logger });
    await waitHealthy(engine);
    const grandchild = Number((await waitForLogMatch(engine, /grandchild pid (\d+)/))[1]);
    expect(isRunning(grandchild)).toBe(true);
    await engine.stop();
    expect(isRunning(grandchild)).toBe(false);
    const warnings = logger.lines.filter((line) => line.level === "warn").map((line) => line.message);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^runtime process: engines are NOT isolated on this machine.*setsid can outlive it.*Use runtime: docker.*Operation not permitted$/,
    );
  });

  it("reports a leader that dies while its worker holds the pipes, and stop() ends the orphaned worker", async () => {
    const { engine } = await startFake("crash-orphan", { isolation: none });
    const worker = Number((await waitForLogMatch(engine, /worker ready (\d+)/))[1]);
    const failure = await failureOf(waitHealthy(engine, 600));
    expect(failure).toMatchObject({ stage: "startup", kind: "exited", exitCode: 1 });
    expect(isRunning(worker)).toBe(true);
    await engine.stop();
    expect(isRunning(worker)).toBe(false);
  });
});

describe("process runtime: the candidate's patched copy", () => {
  async function sourceTree() {
    const root = await makeTempDir("speedgate-copy-");
    const dir = join(root, "engine");
    await mkdir(dir);
    await writeFile(join(dir, "mode.txt"), "healthy\n");
    const patchPath = join(root, "change.patch");
    const patchText = "--- a/mode.txt\n+++ b/mode.txt\n@@ -1 +1 @@\n-healthy\n+patched\n";
    await writeFile(patchPath, patchText);
    return { dir, patchPath, patchText };
  }

  it("patches a copy, runs postPatch steps and the candidate in it, leaves the source alone and removes the copy on dispose", async () => {
    const { dir, patchPath, patchText } = await sourceTree();
    const port = await getFreePort();
    const base = makeProcessRound({ port, command: ["{node}", fakeEngine, "healthy", "{port}"] });
    const round = {
      ...base,
      config: {
        ...base.config,
        candidate: {
          ...base.config.candidate,
          sourceDir: dir,
          patch: patchPath,
          postPatch: [["{node}", "-e", "require('fs').writeFileSync('built.txt', require('fs').readFileSync('mode.txt', 'utf8'))"]],
        },
      },
      patch: { path: patchPath, bytes: Buffer.from(patchText), sha256: "a".repeat(64) },
    };
    const runtime = new ProcessRuntime(round, { logger: silentLogger, runId: "copy" });
    runtimes.push(runtime);
    const prepared = await runtime.prepare("candidate", new AbortController().signal);
    expect(prepared.patchHash).toBe("a".repeat(64));
    const engine = await runtime.start("candidate", new AbortController().signal);
    await waitHealthy(engine);
    const copy = readlinkSync(`/proc/${(engine as RunningEngine & { pid: number }).pid}/cwd`);
    expect(copy).not.toBe(dir);
    expect(await readFile(join(copy, "mode.txt"), "utf8")).toBe("patched\n");
    expect(await readFile(join(copy, "built.txt"), "utf8")).toBe("patched\n");
    expect(await readFile(join(dir, "mode.txt"), "utf8")).toBe("healthy\n");
    await runtime.dispose();
    expect(existsSync(copy)).toBe(false);
  });

  it("reports a failing postPatch step as a build error with its output", async () => {
    const { dir, patchPath, patchText } = await sourceTree();
    const base = makeProcessRound({ port: await getFreePort(), command: ["{node}", fakeEngine, "healthy", "{port}"] });
    const round = {
      ...base,
      config: {
        ...base.config,
        candidate: {
          ...base.config.candidate,
          sourceDir: dir,
          patch: patchPath,
          postPatch: [["{node}", "-e", "console.error('error: kernel build failed'); process.exit(2)"]],
        },
      },
      patch: { path: patchPath, bytes: Buffer.from(patchText), sha256: "b".repeat(64) },
    };
    const runtime = new ProcessRuntime(round, { logger: silentLogger, runId: "post" });
    runtimes.push(runtime);
    const failure = await failureOf(runtime.prepare("candidate", new AbortController().signal));
    expect(failure).toMatchObject({ engine: "candidate", stage: "build", kind: "build_error", exitCode: 2 });
    expect(failure.summary).toContain("error: kernel build failed");
    expect(failure.logTail).toEqual(["error: kernel build failed"]);
  });
});
