import Dockerode from "dockerode";
import { createServer, type Server } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createRecordingLogger } from "../../src/logger.js";
import { runRound } from "../../src/round/run-round.js";
import type { Scorecard } from "../../src/scorecard/scorecard-schema.js";
import { listRunResources } from "../support/docker/list-run-resources.js";
import { getFreePort } from "../support/get-free-port.js";
import { IMAGE_MODEL, IMAGE_SERVER } from "../support/llama-cpp/build-llama-cpp-image.js";
import { llamaCppImage } from "../support/llama-cpp/llama-cpp-test-context.js";
import {
  type LlamaCppRoundOptions,
  QWEN3_TOKENIZER,
  SLOW_SAMPLER,
  llamaServerCommand,
  makeLlamaCppRound,
} from "../../harness/llama-cpp/make-llama-cpp-round.js";
import { makeTempDir } from "../support/make-temp-dir.js";

/*
 * The same real engine in containers: an image made with `docker import` from llama-server, the
 * libraries it loads, the tiny model and busybox, imported once per test run and shared by the files.
 */

const image = llamaCppImage();

describe.skipIf(!image)("llama.cpp's server through the Docker runtime (real engine, real daemon)", () => {
  const docker = new Dockerode();
  const runIds: string[] = [];
  afterEach(async () => {
    for (const runId of runIds.splice(0)) expect(await listRunResources(docker, runId)).toEqual({ containers: [], networks: [] });
  });

  async function playRound(
    options: Omit<LlamaCppRoundOptions, "runtime" | "port" | "dir">,
  ): Promise<{ card: Scorecard; logger: ReturnType<typeof createRecordingLogger> }> {
    const round = makeLlamaCppRound({
      runtime: "docker",
      port: await getFreePort(),
      dir: await makeTempDir("speedgate-llama-docker-"),
      ...options,
    });
    const runId = `llama-docker-${Date.now().toString(36)}`;
    runIds.push(runId);
    const logger = createRecordingLogger();
    return { card: await runRound({ round, logger, signal: new AbortController().signal, runId }), logger };
  }

  const command = (extra: readonly string[] = [], model = IMAGE_MODEL) => llamaServerCommand(IMAGE_SERVER, model, extra, "{host}");

  it("scores a candidate container that really decodes faster, echoing both engines' logs at debug (--verbose)", async () => {
    const { card, logger } = await playRound({
      baseline: { image, command: command(SLOW_SAMPLER) },
      candidate: { command: command() },
      // Spaced so that the fast candidate never queues: sent all at once into one slot, a burst of other work on
      // these 2 cores delayed every queued request behind it, and a 7x faster candidate once scored 0.73x under load.
      // Three runs in counterbalanced order: with one, a burst that covered the candidate's whole run (two CPU-bound
      // processes beside the suite) scored it 0.58x; a prompt's score is the geometric mean of its runs.
      bench: { tokenizer: { path: QWEN3_TOKENIZER, from: "runner" }, requestIntervalMs: 150, runs: 3 },
      prompts: 6,
    });
    expect(card.failure).toBeNull();
    expect(card.promptsScored).toBe(6);
    // About 7× on a quiet machine; the engine's own decode times say why. They are wall time too, so a loaded
    // machine shrinks their ratio (1.75× seen in CI): only the direction is asserted.
    expect(card.roundScore).toBeGreaterThan(1);
    expect(card.tokenCountsEstimated).toBe(false);
    expect(card.engineTimes?.source).toBe("llama.cpp timings");
    expect(card.engineTimes?.baseline?.decodeMsPerToken).toBeGreaterThan(card.engineTimes?.candidate?.decodeMsPerToken ?? Infinity);
    const debug = logger.lines.filter((line) => line.level === "debug").map((line) => line.message);
    for (const role of ["baseline", "candidate"])
      expect(debug.some((line) => line.startsWith(`[${role}] `) && line.includes("llama_server: model loaded"))).toBe(true);
  });

  it("A/A in containers: the same image twice agrees on every answer, counts every token exactly, and finds no speedup", async () => {
    const { card } = await playRound({
      baseline: { image, command: command() },
      // Spaced, as above, so that one burst of other work does not delay one engine's every queued request.
      bench: { tokenizer: { path: QWEN3_TOKENIZER, from: "runner" }, maxTokens: 32, requestIntervalMs: 150 },
      prompts: 4,
    });
    expect(card.failure).toBeNull();
    expect(card.promptsScored).toBe(4);
    expect([card.diverged, card.belowTolerance]).toEqual([0, 0]);
    expect(card.medianAgreement).toBe(1);
    expect(card.tokenCountsEstimated).toBe(false);
    // Nothing to find; a busy machine moves it, within reason.
    expect(card.roundScore).toBeGreaterThan(0.33);
    expect(card.roundScore).toBeLessThan(3);
  });

  describe("startup failures in a container", () => {
    let taken: Server;
    let takenPort = 0;
    beforeAll(async () => {
      takenPort = await getFreePort();
      // Holds the port and hangs up on anyone who calls, so nothing waits on it when it closes.
      taken = createServer((socket) => socket.destroy());
      await new Promise<void>((resolve) => taken.listen(takenPort, "127.0.0.1", resolve));
    });
    afterAll(async () => {
      await new Promise((resolve) => taken.close(resolve));
    });

    it("a port the host already uses (host network): port_in_use, naming the port", async () => {
      // The command names the taken port itself (the round's own port is free), as a hard-coded --port would.
      const taken = { baseline: { image, command: command().map((arg) => (arg === "{port}" ? String(takenPort) : arg)) }, prompts: 1 };
      // llama.cpp logs through a worker thread: a server failing within milliseconds now and then exits
      // before it wrote anything (the card then rightly says so). Such a start is started again, at most twice.
      let { card } = await playRound(taken);
      for (let retry = 0; retry < 2 && card.failure?.logTail.length === 0; retry++) ({ card } = await playRound(taken));
      expect(card.failure).toMatchObject({
        engine: "baseline",
        stage: "startup",
        kind: "port_in_use",
        summary: `start: couldn't bind HTTP server socket, hostname: 127.0.0.1, port: ${takenPort}`,
      });
      expect(card.failure?.hint).toContain(`port ${takenPort}`);
    });

    it("a KV cache the container's address space cannot hold: host_oom with llama.cpp's verdict and the size", async () => {
      const limited = ["sh", "-c", 'ulimit -v 2000000 && exec "$@"', "sh", ...command(["-c", "4000000", "-fit", "off"])];
      const { card } = await playRound({ baseline: { image, command: limited }, prompts: 1 });
      expect(card.failure).toMatchObject({
        engine: "baseline",
        stage: "startup",
        kind: "host_oom",
        label: "host memory refused the KV cache",
      });
      expect(card.failure?.summary).toMatch(
        /^llama_init_from_model: .*failed to allocate buffer for kv cache \(attempted to allocate [\d.]+ MB\)$/,
      );
      expect(card.failure?.hint).toContain("--cache-type-k q8_0");
    });

    it(
      "a baseline whose batch is smaller than a decode (-np 1 -b 1): its GGML_ASSERT as the error line, the frames glibc prints " +
        "without gdb, a hint about its flags",
      async () => {
        const { card } = await playRound({ baseline: { image, command: command(["-b", "1", "-fit", "off"]) }, prompts: 1 });
        const failure = card.failure;
        expect(failure, JSON.stringify(failure)).toMatchObject({
          engine: "baseline",
          stage: "startup",
          kind: "assertion_failed",
          label: "assertion failed (GGML_ASSERT)",
        });
        expect(failure?.summary).toMatch(/(?:^|\/)src\/llama-context\.cpp:1722: GGML_ASSERT\(n_tokens_all <= cparams\.n_batch\) failed$/);
        // The image has no gdb: glibc's frames of llama-server, ggml's own three left out.
        expect(failure?.frames?.[0]).toMatch(/^llama-server\(\+0x[0-9a-f]+\)$/);
        expect(failure?.hint).toMatch(/unpatched llama-server .* not the patch/);
      },
    );

    it("a model the image does not have: model_not_found, whether or not llama-server's log said so before it exited", async () => {
      const { card } = await playRound({ baseline: { image, command: command([], "/models/missing.gguf") }, prompts: 1 });
      expect(card.failure).toMatchObject({ engine: "baseline", stage: "startup", kind: "model_not_found" });
      // llama-server logs through a thread its exit does not wait for: about one start in five lost the line (the same
      // outside Docker), and the card then says what speedgate found in the container.
      expect([
        "gguf_init_from_file: failed to open GGUF file '/models/missing.gguf' (No such file or directory)",
        "-m /models/missing.gguf: no such file or folder in the engine's container (found by speedgate after the engine exited; " +
          "its log does not say why)",
      ]).toContain(card.failure?.summary);
      expect(card.failure?.hint).toContain("docker.mounts");
    });
  });
});
