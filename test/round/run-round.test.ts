import { readFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EngineFailureError, type EngineRole } from "../../src/vocabulary/engine-failure.js";
import { silentLogger } from "../../src/logger.js";
import { RoundCancelledError } from "../../src/round/round-cancelled-error.js";
import { type RoundProgressEvent, runRound } from "../../src/round/run-round.js";
import { writeScorecard } from "../../src/round/write-scorecard.js";
import { isBenchClientWarm } from "../../src/client/warm-bench-client.js";
import { calibrationSettingsOf } from "../../src/config/calibration-settings.js";
import { aaRound, runCalibration } from "../../src/round/run-calibration.js";
import { renderMarkdown } from "../../src/scorecard/render/render-markdown.js";
import { scorecardSchema } from "../../src/scorecard/scorecard-schema.js";
import { type SimProfileInput } from "../../src/sim-engine/sim-profile.js";
import { makeProcessRound } from "./support/make-round.js";
import { SimRuntime, type SimRuntimeHooks } from "../../harness/sim-engine/sim-runtime.js";
import { makeTempDir } from "../support/make-temp-dir.js";

const PROMPTS = ["a", "b", "c"].map((id) => ({ id, prompt: `say ${id}` }));

/** The reference-engine runtime on this file's prompts, recording what the round runner asked of it. */
class InProcessRuntime extends SimRuntime {
  constructor(profiles: Record<EngineRole, SimProfileInput>, hooks: SimRuntimeHooks = {}) {
    super(profiles, PROMPTS, hooks);
  }
}

const fast: SimProfileInput = { defaults: { ttftMs: 2, itlMs: 1, outputTokens: 10 } };
const round = () => ({ ...makeProcessRound({ port: 1, command: ["unused"], prompts: PROMPTS }), prompts: PROMPTS });

describe("runRound", () => {
  // First in the file: the warm-up is once per process, so only the first round shows when it happens.
  it("warms the benchmark client before it prepares or starts any engine", async () => {
    expect(isBenchClientWarm()).toBe(false);
    const warmAtPrepare: boolean[] = [];
    const runtime = new InProcessRuntime(
      { baseline: fast, candidate: fast },
      { prepare: () => void warmAtPrepare.push(isBenchClientWarm()) },
    );
    await runRound({ round: round(), logger: silentLogger, signal: new AbortController().signal, runtime });
    expect(warmAtPrepare).toEqual([true, true]);
  });

  it(
    "prepares both engines first, then runs the baseline and the candidate, stops each, disposes, and fills provenance from the " +
      "prepared engines",
    async () => {
      const runtime = new InProcessRuntime({ baseline: fast, candidate: { defaults: { ...fast.defaults, itlMs: 0 } } });
      const events: RoundProgressEvent[] = [];
      const info: string[] = [];
      const logger = { ...silentLogger, info: (message: string) => info.push(message) };
      const card = await runRound({
        round: round(),
        logger,
        signal: new AbortController().signal,
        runtime,
        onProgress: (event) => events.push(event),
      });
      expect(runtime.calls).toEqual([
        "prepare baseline",
        "prepare candidate",
        "start baseline",
        "stop baseline",
        "start candidate",
        "stop candidate",
        "dispose",
      ]);
      // The round's log says how the client waited for bytes, so its timing can be read against it.
      expect(info.filter((line) => line.startsWith("client busy poll "))).toHaveLength(1);
      expect(scorecardSchema.parse(card)).toBeTruthy();
      expect(card.promptsScored).toBe(3);
      expect(card.provenance).toMatchObject({
        imageDigest: "sha256:candidate",
        baselineImageId: "sha256:baseline",
        patchHash: "f".repeat(64),
      });
      expect(card.provenance.runner).toBeTruthy();
      expect(events.filter((event) => event.type === "benchmark" && event.role === "candidate").at(-1)).toMatchObject({
        done: 3,
        total: 3,
      });
      expect(events.some((event) => event.type === "healthy" && event.role === "baseline")).toBe(true);
    },
  );

  it("skips the candidate entirely when the baseline fails to prepare, and still writes a card", async () => {
    const runtime = new InProcessRuntime(
      { baseline: fast, candidate: fast },
      {
        prepare: (role) => {
          if (role !== "baseline") return;
          throw new EngineFailureError({
            engine: "baseline",
            stage: "build",
            kind: "build_error",
            label: "image build failed",
            summary: "pip install failed",
            hint: "",
            exitCode: 1,
            signal: null,
            logTail: ["pip install failed"],
          });
        },
      },
    );
    const card = await runRound({ round: round(), logger: silentLogger, signal: new AbortController().signal, runtime });
    expect(runtime.calls).toEqual(["prepare baseline", "dispose"]);
    expect(card.failure).toMatchObject({ engine: "baseline", stage: "build" });
  });

  it("turns an engine death during the benchmark into a benchmark-stage failure", async () => {
    // "a" finishes first and the engine dies while "b" and "c" are still streaming: at half a second a
    // token they cannot finish first, however loaded the machine is.
    const slow = { outputTokens: 200, itlMs: 500 };
    const runtime = new InProcessRuntime({
      baseline: fast,
      candidate: { ...fast, prompts: { b: slow, c: slow }, faults: { dieAfterRequests: 1, dieExitCode: 7 } },
    });
    const card = await runRound({ round: round(), logger: silentLogger, signal: new AbortController().signal, runtime });
    expect(card.failure).toMatchObject({
      engine: "candidate",
      stage: "benchmark",
      exitCode: 7,
      summary: "RuntimeError: the simulated engine died",
    });
    expect(card.prompts.find((prompt) => prompt.id === "a")?.status).toBe("scored");
    expect(card.prompts.find((prompt) => prompt.id === "b")?.status).toBe("zeroed");
    expect(runtime.calls.at(-1)).toBe("dispose");
  });

  it("stops the engine, disposes and throws a cancellation error (no card) when cancelled mid-benchmark", async () => {
    const controller = new AbortController();
    const runtime = new InProcessRuntime(
      { baseline: { defaults: { ttftMs: 10_000, outputTokens: 5 } }, candidate: fast },
      {
        afterStart: () => setImmediate(() => controller.abort(new Error("received SIGINT"))),
      },
    );
    const error = await runRound({ round: round(), logger: silentLogger, signal: controller.signal, runtime }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(RoundCancelledError);
    expect((error as Error).message).toContain("received SIGINT");
    expect(runtime.calls).toEqual(["prepare baseline", "prepare candidate", "start baseline", "stop baseline", "dispose"]);
  });

  it("ends the round before any engine starts when the candidate's patch does not apply", async () => {
    const runtime = new InProcessRuntime(
      { baseline: fast, candidate: fast },
      {
        prepare: (role) => {
          if (role !== "candidate") return;
          throw new EngineFailureError({
            engine: "candidate",
            stage: "patch",
            kind: "patch_conflict",
            label: "patch does not apply",
            summary: "error: patch failed: profile.json:3",
            hint: "",
            exitCode: 1,
            signal: null,
            logTail: ["error: patch failed: profile.json:3"],
          });
        },
      },
    );
    const events: RoundProgressEvent[] = [];
    const card = await runRound({
      round: round(),
      logger: silentLogger,
      signal: new AbortController().signal,
      runtime,
      onProgress: (event) => events.push(event),
    });
    expect(runtime.calls).toEqual(["prepare baseline", "prepare candidate", "dispose"]);
    expect(card.failure).toMatchObject({ engine: "candidate", stage: "patch", kind: "patch_conflict" });
    expect(card.runs).toEqual({ completed: 0, scores: [] });
    expect(card.roundScore).toBeNull();
    expect(card.gate.passed).toBe(false);
    expect(
      card.prompts.every(
        (prompt) => prompt.status === "zeroed" && prompt.reason === "candidate engine failed at patch (patch does not apply)",
      ),
    ).toBe(true);
    expect(events).toContainEqual({
      type: "skipped",
      role: "baseline",
      reason: "the candidate could not be prepared, so no engine was started",
    });
  });

  it(
    "runs in counterbalanced order (baseline, candidate, then candidate, baseline), restarting each engine every run and preparing " +
      "each once",
    async () => {
      const runtime = new InProcessRuntime({ baseline: fast, candidate: { defaults: { ...fast.defaults, itlMs: 0 } } });
      const twice = round();
      const events: RoundProgressEvent[] = [];
      const card = await runRound({
        round: { ...twice, config: { ...twice.config, bench: { ...twice.config.bench, runs: 2 } } },
        logger: silentLogger,
        signal: new AbortController().signal,
        runtime,
        onProgress: (event) => events.push(event),
      });
      expect(runtime.calls).toEqual([
        "prepare baseline",
        "prepare candidate",
        "start baseline",
        "stop baseline",
        "start candidate",
        "stop candidate",
        "start candidate",
        "stop candidate",
        "start baseline",
        "stop baseline",
        "dispose",
      ]);
      expect(card.settings.order).toBe("counterbalanced");
      expect(card.runs.completed).toBe(2);
      expect(card.runs.scores).toHaveLength(2);
      expect(card.settings.runs).toBe(2);
      expect(
        card.prompts.every(
          (prompt) => prompt.runs.length === 2 && prompt.runs.every((run) => run.status === "scored" && run.baselineMs !== null),
        ),
      ).toBe(true);
      expect(
        events
          .filter((event) => event.type === "starting")
          .map((event) => `${event.role} ${"run" in event ? event.run : ""}/${"runs" in event ? event.runs : ""}`),
      ).toEqual(["baseline 1/2", "candidate 1/2", "candidate 2/2", "baseline 2/2"]);
      // Each run pairs its own two engine starts, whichever went first: run 2 has both sides' times, as run 1 does.
      expect(card.runs.scores.every((score) => score !== null)).toBe(true);
    },
  );

  it("says on the card, near the top, that nothing was changed when the round has no patch and one engine in both seats", async () => {
    const card = await runRound({
      round: round(),
      logger: silentLogger,
      signal: new AbortController().signal,
      runtime: new InProcessRuntime({ baseline: fast, candidate: fast }),
    });
    expect(card.unchanged).toMatch(/^the round has no patch, and the candidate runs the baseline's image, command and environment/);
    const markdown = renderMarkdown(card);
    const notice = markdown.indexOf("**No change was scored**");
    expect(notice).toBeGreaterThan(0);
    expect(notice).toBeLessThan(markdown.indexOf("<details>"));
    const other = makeProcessRound({ port: 1, command: ["unused"], candidateCommand: ["other"], prompts: PROMPTS });
    const changed = await runRound({
      round: other,
      logger: silentLogger,
      signal: new AbortController().signal,
      runtime: new InProcessRuntime({ baseline: fast, candidate: fast }),
    });
    expect(changed.unchanged).toBeUndefined();
    expect(renderMarkdown(changed)).not.toContain("No change was scored");
  });

  it(
    "runs a calibration's A/A rounds exactly as a scoring round: the same " + "runs, order, warm-ups and client, only the patch left out",
    async () => {
      const base = round();
      const scoring = { ...base, config: { ...base.config, bench: { ...base.config.bench, runs: 2, warmupRequests: 1 } } };
      const aa = aaRound(scoring);
      expect(aa.config.bench).toEqual(scoring.config.bench);
      expect(calibrationSettingsOf(aa.config, PROMPTS.length)).toEqual(calibrationSettingsOf(scoring.config, PROMPTS.length));
      expect(calibrationSettingsOf(aa.config, PROMPTS.length)).toMatchObject({
        runs: 2,
        order: "counterbalanced",
        clientWarmup: true,
        warmupRequests: 1,
      });

      const scoringRuntime = new InProcessRuntime({ baseline: fast, candidate: fast });
      await runRound({ round: scoring, logger: silentLogger, signal: new AbortController().signal, runtime: scoringRuntime });
      const calibrationRuntimes: InProcessRuntime[] = [];
      const file = await runCalibration({
        round: { ...scoring, configPath: join(await makeTempDir("speedgate-calibration-order-"), "round.yml") },
        // The fewest a calibration takes.
        rounds: 5,
        logger: silentLogger,
        signal: new AbortController().signal,
        runId: "aa",
        runtimeFor: () => {
          const runtime = new InProcessRuntime({ baseline: fast, candidate: fast });
          calibrationRuntimes.push(runtime);
          return runtime;
        },
      });
      expect(file.settings).toMatchObject({ runs: 2, order: "counterbalanced", clientWarmup: true });
      for (const runtime of calibrationRuntimes) expect(runtime.calls).toEqual(scoringRuntime.calls);
    },
  );

  it("keeps the baseline first in every run with bench.order: baseline-first", async () => {
    const runtime = new InProcessRuntime({ baseline: fast, candidate: fast });
    const fixed = round();
    const card = await runRound({
      round: { ...fixed, config: { ...fixed.config, bench: { ...fixed.config.bench, runs: 2, order: "baseline-first" } } },
      logger: silentLogger,
      signal: new AbortController().signal,
      runtime,
    });
    expect(runtime.calls.filter((call) => call.startsWith("start"))).toEqual([
      "start baseline",
      "start candidate",
      "start baseline",
      "start candidate",
    ]);
    expect(card.settings.order).toBe("baseline-first");
  });

  it("ends the round at the first failure and says in which run it happened", async () => {
    let starts = 0;
    const runtime = new InProcessRuntime(
      { baseline: fast, candidate: fast },
      {
        afterStart: (role, engine) => {
          if (role === "candidate" && ++starts === 2) void engine.stop();
        },
      },
    );
    const three = round();
    const card = await runRound({
      round: { ...three, config: { ...three.config, bench: { ...three.config.bench, runs: 3 } } },
      logger: silentLogger,
      signal: new AbortController().signal,
      runtime,
    });
    // Run 2 starts the candidate first: once it fails, no baseline is started for a run that cannot be scored.
    expect(runtime.calls.filter((call) => call.startsWith("start"))).toEqual(["start baseline", "start candidate", "start candidate"]);
    expect(card.failure).toMatchObject({ engine: "candidate", run: 2 });
    expect(card.runs.completed).toBe(2);
    expect(card.gate.passed).toBe(false);
    expect(card.gate.reasons[0]).toMatch(/^the candidate engine failed: candidate engine failed at (startup|benchmark) in run 2 of 3/);
  });

  it("disposes the runtime when infrastructure throws", async () => {
    const runtime = new InProcessRuntime(
      { baseline: fast, candidate: fast },
      {
        prepare: (role) => {
          if (role === "candidate") throw new Error("docker daemon went away");
        },
      },
    );
    await expect(runRound({ round: round(), logger: silentLogger, signal: new AbortController().signal, runtime })).rejects.toThrow(
      "docker daemon went away",
    );
    expect(runtime.calls.at(-1)).toBe("dispose");
  });
});

describe("writeScorecard", () => {
  it("writes scorecard.json and scorecard.md without leaving temporary files", async () => {
    const runtime = new InProcessRuntime({ baseline: fast, candidate: fast });
    const card = await runRound({ round: round(), logger: silentLogger, signal: new AbortController().signal, runtime });
    const dir = join(await makeTempDir("speedgate-card-"), "nested", "out");
    const { jsonPath, markdownPath } = await writeScorecard(dir, card);
    await writeScorecard(dir, card);
    expect(JSON.parse(await readFile(jsonPath, "utf8"))).toEqual(card);
    expect(await readFile(markdownPath, "utf8")).toContain("<!-- speedgate -->");
    expect((await readdir(dir)).sort()).toEqual(["scorecard.json", "scorecard.md"]);
  });
});
