import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadRound } from "../../src/config/load-round-config.js";
import { processGroupAlive } from "../../src/engine/process-group.js";
import { ProcessRuntime } from "../../src/engine/process-runtime.js";
import { createRecordingLogger } from "../../src/logger.js";
import { runRound } from "../../src/round/run-round.js";
import type { Scorecard } from "../../src/scorecard/scorecard-schema.js";
import { simCommand, writeCliRound } from "../cli/support/sim-round.js";
import { MARK_VARIABLE, markedProcesses, newMark } from "../support/find-marked-processes.js";
import { RecordingRuntime } from "./support/recording-runtime.js";

/*
 * Faults, nothing lost, nothing left behind: the engine rows, against the process runtime.
 *
 * Every engine here is `speedgate sim-engine` under a leader that forks a worker ignoring SIGTERM
 * (fixtures/engine-with-worker.mjs), as SGLang's and vLLM's schedulers are, so "nothing left" means
 * the leader, the worker and the engine are all gone when the round returns, checked in /proc.
 *
 * The rest of the table lives where it is already tested well:
 *   - the runner cancels (SIGINT then SIGTERM, SIGTERM) on `speedgate run` as a child process while
 *     the candidate streams: ./cancel-faults.test.ts; the same and more signal orders during the
 *     baseline: test/cli/run-signals.test.ts (engine group checked in /proc, no card written)
 *   - the same rows against containers (card, no container or network with the run's label):
 *     test/docker/docker-round.test.ts (dies at startup, hangs, dies halfway, SIGKILL) and
 *     test/docker/docker-signals.test.ts (SIGINT/SIGTERM on `speedgate run`, runtime: docker);
 *     HTTP 500, broken streams, the client timeout and the daemon going away: ./docker-faults.test.ts
 *   - GitHub rows (API 500, secondary rate limit, duplicate webhook, two runs together): the app in
 *     ./github-faults.test.ts and ./github-http-faults.test.ts, the action's comment in
 *     ./action-comment-faults.test.ts
 */

const withWorker = fileURLToPath(new URL("./fixtures/engine-with-worker.mjs", import.meta.url));
const cudaOomLog = fileURLToPath(new URL("../failure/fixtures/sglang-cuda-graph-oom.log", import.meta.url));

/** The sim-engine under a leader with a stubborn worker. */
function engine(...flags: string[]): string[] {
  return ["{node}", withWorker, ...simCommand(...flags)];
}

interface FaultRow {
  name: string;
  candidate: string[];
  health?: { timeoutS: number };
  bench?: Record<string, unknown>;
  /** A sim-engine profile written next to the config as profile.json. */
  profile?: Record<string, unknown>;
  check: (card: Scorecard) => void;
}

const byId = (card: Scorecard, id: string) => card.prompts.find((prompt) => prompt.id === id);

const rows: FaultRow[] = [
  {
    name: "engine dies at startup (CUDA OOM traceback, exit 1)",
    candidate: engine("--crash-log", cudaOomLog, "--crash-exit-code", "1"),
    check: (card) => {
      expect(card.failure).toMatchObject({ engine: "candidate", stage: "startup", kind: "cuda_oom", exitCode: 1 });
      expect(card.failure?.hint).toMatch(/mem-fraction-static/);
      expect(card.failure?.logTail.length).toBeGreaterThan(0);
      expect(card.prompts.every((prompt) => prompt.status === "zeroed")).toBe(true);
      expect(card.gate.passed).toBe(false);
    },
  },
  {
    // Short, but with room for the baseline (the same setting, and it starts first) under a loaded CI machine:
    // reference engines took up to 4.7 s to answer in suite runs beside two CPU-bound processes, so 5 s was not.
    name: "engine hangs at startup (never healthy, health.timeoutS: 15)",
    candidate: engine("--never-healthy"),
    health: { timeoutS: 15 },
    check: (card) => {
      expect(card.failure).toMatchObject({ engine: "candidate", stage: "startup", kind: "startup_timeout", exitCode: null });
      expect(card.failure?.label).toContain("15 s");
      expect(card.prompts.every((prompt) => prompt.status === "zeroed")).toBe(true);
    },
  },
  {
    name: "engine dies halfway through the benchmark (exit 3 after 2 requests)",
    candidate: engine("--die-after-requests", "2", "--die-exit-code", "3"),
    bench: { requestIntervalMs: 150 },
    check: (card) => {
      expect(card.failure).toMatchObject({ engine: "candidate", stage: "benchmark", exitCode: 3 });
      expect(byId(card, "p1")?.status).toBe("scored");
      expect(byId(card, "p6")?.status).toBe("zeroed");
      expect(byId(card, "p6")?.reason).toMatch(/candidate engine exited with code 3 during the benchmark/);
      // Every prompt is accounted for: none dropped from the card.
      expect(card.prompts.map((prompt) => prompt.id).sort()).toEqual(["p1", "p2", "p3", "p4", "p5", "p6"]);
    },
  },
  {
    name: "engine answers HTTP 500 for one prompt and a broken stream for another",
    candidate: engine("--http-500", "p3", "--malformed-sse", "p4"),
    check: (card) => {
      expect(card.failure).toBeNull();
      expect(byId(card, "p3")).toMatchObject({ status: "zeroed", score: 0 });
      expect(byId(card, "p3")?.reason).toContain("500");
      expect(byId(card, "p4")).toMatchObject({ status: "zeroed", score: 0 });
      expect(byId(card, "p4")?.candidate?.error).toBeTruthy();
      expect(byId(card, "p1")?.status).toBe("scored");
      expect(card.promptsTotal).toBe(6);
    },
  },
  {
    name: "the benchmark client times out on a slow prompt (bench.requestTimeoutS: 1)",
    candidate: engine("--profile", "profile.json"),
    profile: { prompts: { p2: { ttftMs: 30_000 } } },
    bench: { requestTimeoutS: 1 },
    check: (card) => {
      expect(card.failure).toBeNull();
      expect(byId(card, "p2")).toMatchObject({ status: "zeroed", score: 0 });
      expect(byId(card, "p2")?.reason).toMatch(/request timeout of 1 s/);
      expect(byId(card, "p1")?.status).toBe("scored");
      expect(byId(card, "p6")?.status).toBe("scored");
    },
  },
];

describe("faults in the engine (runtime: process): the card says what happened and no process is left", () => {
  it.each(rows)("$name", async (row) => {
    const mark = newMark();
    const { dir, configPath } = await writeCliRound({
      baseline: { command: engine(), env: { [MARK_VARIABLE]: mark } },
      candidate: { command: row.candidate },
      ...(row.health ? { health: row.health } : {}),
      ...(row.bench ? { bench: row.bench } : {}),
    });
    if (row.profile) await writeFile(join(dir, "profile.json"), JSON.stringify(row.profile));
    const round = await loadRound(configPath);
    const logger = createRecordingLogger();
    const runtime = new RecordingRuntime(new ProcessRuntime(round, { logger, runId: "faults" }));
    const card = await runRound({ round, logger, signal: new AbortController().signal, runtime });

    row.check(card);
    const groups = runtime.processGroups();
    expect(groups).toHaveLength(2);
    for (const group of groups) expect(processGroupAlive(group), `process group ${group}`).toBe(false);
    // The stubborn workers too, found by the mark every process of both engines inherits.
    const workers = logger.lines.filter((line) => /worker pid (\d+)/.test(line.message));
    expect(workers.length).toBeGreaterThanOrEqual(1);
    expect(markedProcesses(mark)).toEqual([]);
  });
});
