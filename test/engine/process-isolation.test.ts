import { spawn } from "node:child_process";
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { RunningEngine } from "../../src/engine/engine-runtime.js";
import { type ProcessIsolation, probeProcessIsolation } from "../../src/engine/process-isolation.js";
import { ProcessRuntime } from "../../src/engine/process-runtime.js";
import { waitUntilHealthy } from "../../src/engine/wait-until-healthy.js";
import { silentLogger } from "../../src/logger.js";
import { parseScorecardJson } from "../../src/scorecard/read-scorecard.js";
import { writeCliRound } from "../cli/support/sim-round.js";
import { makeProcessRound } from "../round/support/make-round.js";
import { MARK_VARIABLE, markedProcesses, newMark } from "../support/find-marked-processes.js";
import { getFreePort } from "../support/get-free-port.js";
import { waitForLogMatch } from "./support/wait-for-log-match.js";
import { speedgateEntryArgs } from "../../src/engine/locate-speedgate.js";
import { concatPatterns } from "../support/concat-patterns.js";

/*
 * Each way this machine can isolate host engines, checked with real processes: the root's PID
 * namespace and the unprivileged user's user namespace; the choice made for an unprivileged user;
 * and the fallback where neither is allowed (util-linux missing, or unshare refused).
 */

const root = fileURLToPath(new URL("../..", import.meta.url));
const fakeEngine = fileURLToPath(new URL("./fixtures/fake-engine.mjs", import.meta.url));
const runtimes: ProcessRuntime[] = [];

afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.dispose()));
});

async function startUnder(isolation: ProcessIsolation, mode: string): Promise<{ engine: RunningEngine; mark: string }> {
  const mark = newMark();
  const round = makeProcessRound({
    port: await getFreePort(),
    command: ["{node}", fakeEngine, mode, "{port}"],
    env: { [MARK_VARIABLE]: mark },
  });
  const runtime = new ProcessRuntime(round, { logger: silentLogger, runId: "isolation" }, { isolation: Promise.resolve(isolation) });
  runtimes.push(runtime);
  const engine = await runtime.start("baseline", new AbortController().signal);
  await waitUntilHealthy({ engine, path: "/health", timeoutS: 30, intervalMs: 20, signal: new AbortController().signal });
  return { engine, mark };
}

describe.each(["pid-namespace", "user-namespace"] as const)("isolation by %s", (kind) => {
  let isolation: ProcessIsolation;
  beforeAll(async () => {
    isolation = await probeProcessIsolation({ kinds: [kind] });
  });

  it("is allowed on this machine", () => {
    expect(isolation, isolation.kind === "none" ? isolation.reason : "").toMatchObject({ kind });
  });

  it("confines the engine: its parent is the namespace's init, /proc shows only its namespace, and it cannot unmount /proc", async () => {
    const { engine } = await startUnder(isolation, "look-around");
    const seen = JSON.parse((await waitForLogMatch(engine, /^look-around (.*)$/))[1] ?? "{}") as {
      ppid: number;
      visible: string[];
      umountStatus: number | null;
    };
    expect(seen.ppid).toBe(1);
    expect(seen.visible.length).toBeLessThan(10);
    expect(seen.visible).not.toContain(String(process.pid));
    expect(seen.umountStatus).not.toBe(0);
  });

  it("ends what the engine started with setsid when the engine stops", async () => {
    const { engine, mark } = await startUnder(isolation, "setsid-child");
    await waitForLogMatch(engine, /setsid child ready/);
    expect(markedProcesses(mark).length).toBeGreaterThanOrEqual(3);
    await engine.stop();
    expect(markedProcesses(mark)).toEqual([]);
  });
});

describe.skipIf(process.getuid?.() !== 0)("isolation chosen for an unprivileged user", () => {
  it("is a user namespace: a PID namespace alone needs root", async () => {
    const dir = await mkdtemp(join(tmpdir(), "speedgate-nobody-"));
    try {
      const script = join(dir, "probe.mts");
      await writeFile(
        script,
        `import { probeProcessIsolation } from ` +
          `${JSON.stringify(pathToFileURL(join(root, "src/engine/process-isolation.ts")).href)};\nconsole.log(JSON.stringify(await ` +
          `probeProcessIsolation()));\n`,
      );
      await chmod(dir, 0o755);
      // The test run's own temporary folders are private to root (mkdtemp): let the unprivileged
      // user pass through them to reach the probe, without letting it list them.
      for (let folder = dirname(dir); (await stat(folder)).mode % 2 === 0; folder = dirname(folder)) {
        await chmod(folder, 0o711);
      }
      const loader = pathToFileURL(join(root, "node_modules/tsx/dist/loader.mjs")).href;
      const child = spawn("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", process.execPath, "--import", loader, script], {
        cwd: dir,
        env: { PATH: process.env.PATH ?? "", HOME: dir },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
      child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      expect(code, output).toBe(0);
      const chosen = JSON.parse(output.trim().split("\n").pop() ?? "{}") as { kind: string; prefix?: string[] };
      expect(chosen.kind).toBe("user-namespace");
      expect(chosen.prefix).toContain("--user");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("the fallback where engines cannot be isolated", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "speedgate-no-unshare-"));
    // What a kernel without unprivileged user namespaces, or a container without CAP_SYS_ADMIN, answers.
    await writeFile(join(dir, "unshare"), "#!/bin/sh\necho 'unshare: unshare failed: Operation not permitted' >&2\nexit 1\n");
    await chmod(join(dir, "unshare"), 0o755);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("says why when util-linux is not installed", async () => {
    expect(await probeProcessIsolation({ tools: { unshare: "speedgate-no-such-unshare" } })).toEqual({
      kind: "none",
      reason: "speedgate-no-such-unshare not found on PATH (util-linux)",
    });
  });

  it("says what each way answered when unshare is refused", async () => {
    const isolation = await probeProcessIsolation({ tools: { unshare: join(dir, "unshare") } });
    expect(isolation.kind).toBe("none");
    const reason = isolation.kind === "none" ? isolation.reason : "";
    expect(reason.match(/Operation not permitted/g)).toHaveLength(3);
    expect(reason).toContain(
      "unshare --user --map-current-user --pid --fork --kill-child --mount-proc: unshare: unshare failed: Operation not permitted",
    );
  });

  it("still scores the round with `speedgate run`, after a warning that names the risk", async () => {
    const mark = newMark();
    const round = await writeCliRound({ baseline: { env: { [MARK_VARIABLE]: mark } } });
    try {
      const out = join(round.dir, "out");
      const child = spawn(process.execPath, [...speedgateEntryArgs(), "run", "--config", round.configPath, "--out", out], {
        cwd: root,
        // The refusing unshare comes first on PATH, as it would on a machine that does not allow it.
        env: { ...process.env, PATH: `${dir}:${process.env.PATH ?? ""}` },
        stdio: ["ignore", "ignore", "pipe"],
      });
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      expect(code, stderr).toBe(0);
      expect(stderr).toMatch(
        concatPatterns(
          /runtime process: engines are NOT isolated on this machine, only put in process groups.*Use runtime: docker for code you do /,
          /not trust\. Why: .*Operation not permitted/,
        ),
      );
      const card = parseScorecardJson(await readFile(join(out, "scorecard.json"), "utf8"), "scorecard.json");
      expect(card.failure).toBeNull();
      expect(card.promptsScored).toBe(card.promptsTotal);
      expect(markedProcesses(mark)).toEqual([]);
    } finally {
      await rm(round.dir, { recursive: true, force: true });
    }
  });
});
