import { execFile } from "node:child_process";
import { cp, open, readFile, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRecordingLogger } from "../../src/logger.js";
import { runRound } from "../../src/round/run-round.js";
import { describeFailureEvent } from "../../src/scorecard/render/describe-card.js";
import { renderMarkdown } from "../../src/scorecard/render/render-markdown.js";
import type { Scorecard } from "../../src/scorecard/scorecard-schema.js";
import { getFreePort } from "../support/get-free-port.js";
import { llamaCppTestContext } from "../support/llama-cpp/llama-cpp-test-context.js";
import {
  type LlamaCppRoundOptions,
  QWEN3_TOKENIZER,
  llamaServerCommand,
  makeLlamaCppRound,
} from "../../harness/llama-cpp/make-llama-cpp-round.js";
import { makeTempDir } from "../support/make-temp-dir.js";
import { concatPatterns } from "../support/concat-patterns.js";

/*
 * speedgate against an engine nobody here wrote: llama.cpp's server on this machine's CPU, serving a
 * 4-layer random-weight model with Qwen3's vocabulary (../shared/engines/llama-cpp; skipped with a
 * notice without it, an error in CI). Rounds are short: six prompts, 16 tokens, one thread.
 */

const context = llamaCppTestContext();
const launcher = new URL("../fixtures/llama-cpp-launcher/", import.meta.url).pathname;
const run = promisify(execFile);

/** What a llama.cpp card's summary must not start with: its elapsed time and level, or the server's tag. */
const LOG_PREFIX = /^\d+\.\d{2}\.\d{3}\.\d{3}|^[DIWE] |^(?:srv|slot|cmn) /;
/** What a llama.cpp card's hint must not send its reader to. */
const PYTHON_ENGINE_FLAGS = /--mem-fraction-static|--gpu-memory-utilization|--max-model-len|--enforce-eager|sglang|vllm/i;

async function playRound(options: Omit<LlamaCppRoundOptions, "runtime" | "port" | "dir"> & { dir?: string }): Promise<Scorecard> {
  const dir = options.dir ?? (await makeTempDir("speedgate-llama-"));
  const round = makeLlamaCppRound({ runtime: "process", port: await getFreePort(), dir, ...options });
  return await runRound({
    round,
    logger: createRecordingLogger(),
    signal: new AbortController().signal,
    runId: `llama-${Date.now().toString(36)}`,
  });
}

describe.skipIf(!context)("llama.cpp's server through the process runtime (real engine)", () => {
  const { server, model } = context ?? { server: "", model: "" };

  it(
    "A/A without a tokenizer: the same server twice agrees on every answer, and nothing is estimated although usage counts the " +
      "unstreamed end of sequence",
    async () => {
      const command = llamaServerCommand(server, model);
      const card = await playRound({ baseline: { command }, bench: { maxTokens: 48 } });
      expect(card.failure).toBeNull();
      expect(card.promptsScored).toBe(6);
      expect(card.diverged).toBe(0);
      expect(card.medianAgreement).toBe(1);
      expect(card.tokenCountsEstimated).toBe(false);
      // Some answers stop before 48 tokens: those are the ones whose usage counted a token the stream never held.
      expect(card.prompts.some((prompt) => prompt.baseline?.finishReason === "stop")).toBe(true);
      // No speedup to find; a busy machine moves it, within reason.
      expect(card.roundScore).toBeGreaterThan(0.33);
      expect(card.roundScore).toBeLessThan(3);
    },
  );

  describe("a real C++ source patch, rebuilt by postPatch", () => {
    let source = "";
    beforeAll(async () => {
      source = join(await makeTempDir("speedgate-launcher-"), "launcher");
      await cp(launcher, source, { recursive: true });
      // The baseline checkout, built as a runner would have it.
      await run("g++", ["-O1", "-o", "serve", "serve.cpp"], { cwd: source });
    });

    const patchRound = async (name: string) => {
      const path = join(launcher, name);
      return await playRound({
        dir: source,
        baseline: { command: ["./serve", server, model, "{port}"], cwd: source },
        candidate: { sourceDir: source, patch: path, postPatch: [["g++", "-O1", "-o", "serve", "serve.cpp"]] },
        patch: { path, text: await readFile(path, "utf8") },
        // Spaced so that the fast candidate never queues: all at once into one slot, one burst of other work
        // delays every request queued behind it, which a faster candidate's short benchmark cannot outweigh.
        bench: { tokenizer: QWEN3_TOKENIZER, requestIntervalMs: 150 },
      });
    };

    it(
      "scores the rebuilt candidate, really faster because of the line it changed (top-k 40 before top-p), with exact token counts and " +
        "the engine's own times",
      async () => {
        const card = await patchRound("faster-sampler.patch");
        expect(card.failure).toBeNull();
        expect(card.promptsScored).toBe(6);
        // About 7× on a quiet machine (28 → 2.5 ms a token); 1.3× was seen with seven test files on these 2 cores,
        // when a burst of other work lands on the candidate's short benchmark. The engine's own decode times say why.
        expect(card.roundScore).toBeGreaterThan(1);
        expect(card.provenance.patchHash).toMatch(/^[0-9a-f]{64}$/);
        expect(card.tokenCountsEstimated).toBe(false);
        for (const prompt of card.prompts) {
          for (const side of [prompt.baseline, prompt.candidate]) {
            // Speedgate's count of the streamed text is the engine's, less the end-of-sequence token of an answer that stopped.
            expect(side?.claimedTokens).toBe((side?.outputTokens ?? 0) + (side?.finishReason === "stop" ? 1 : 0));
          }
        }
        expect(card.engineTimes?.source).toBe("llama.cpp timings");
        expect(card.engineTimes?.baseline?.requests).toBe(6);
        // The engine's own decode clock says where the speed came from: sorting 151,669 logits a token costs the
        // baseline about 11 times the candidate's decode on a quiet machine. That clock is wall time too, so a burst of
        // other work on these 2 cores during the candidate's short benchmark shrinks the ratio (1.75× seen in CI):
        // only the direction is asserted.
        expect(card.engineTimes?.baseline?.decodeMsPerToken).toBeGreaterThan(card.engineTimes?.candidate?.decodeMsPerToken ?? Infinity);
      },
    );

    it("gives a patch that does not compile a build_error whose summary is g++'s first error, with its file and line", async () => {
      const card = await patchRound("broken-build.patch");
      expect(card.failure).toMatchObject({ engine: "candidate", stage: "build", kind: "build_error" });
      expect(card.failure?.summary).toMatch(/^serve\.cpp:18:\d+: error: .top_k. was not declared in this scope$/);
      // No engine started, and no image was built: the card says build.
      expect(card.prompts.every((prompt) => prompt.baseline === null)).toBe(true);
      expect(describeFailureEvent(card.failure ?? fail())).toBe("candidate build failed");
    });
  });

  describe("startup failures, produced by the real binary", () => {
    let taken: Server;
    let takenPort = 0;
    let corrupt = "";
    beforeAll(async () => {
      takenPort = await getFreePort();
      taken = createServer((socket) => socket.destroy());
      await new Promise<void>((resolve) => taken.listen(takenPort, "127.0.0.1", resolve));
      // The first megabyte of the model: a GGUF header whose key-value pairs run past the end of the file.
      corrupt = join(await makeTempDir("speedgate-gguf-"), "truncated.gguf");
      const handle = await open(model);
      const { buffer } = await handle.read(Buffer.alloc(1_000_000), 0, 1_000_000, 0);
      await handle.close();
      await writeFile(corrupt, buffer);
    });
    afterAll(async () => {
      await new Promise((resolve) => taken.close(resolve));
    });

    it.each([
      {
        what: "a taken port",
        command: () => llamaServerCommand(server, model).map((arg) => (arg === "{port}" ? String(takenPort) : arg)),
        kind: "port_in_use",
        summary: () => `start: couldn't bind HTTP server socket, hostname: 127.0.0.1, port: ${takenPort}`,
        hint: /`--port`/,
      },
      {
        what: "a context whose KV cache the host will not allocate",
        // ulimit -v caps the address space, so the refusal is the same on any machine whatever its RAM.
        command: () => [
          "sh",
          "-c",
          'ulimit -v 2000000 && exec "$@"',
          "sh",
          ...llamaServerCommand(server, model, ["-c", "4000000", "-fit", "off"]),
        ],
        kind: "host_oom",
        summary: () =>
          concatPatterns(
            /^llama_init_from_model: failed to initialize the context: failed to allocate buffer for kv cache \(attempted to allocate /,
            /[\d.]+ MB\)$/,
          ),
        hint: /`-c`.*`-np`.*--cache-type-k q8_0/,
      },
      {
        what: "an unknown flag",
        command: () => llamaServerCommand(server, model, ["--bogus-flag"]),
        kind: "invalid_argument",
        summary: () => "error: invalid argument: --bogus-flag",
        hint: /llama-server --help/,
      },
      {
        what: "a missing model",
        command: () => llamaServerCommand(server, "/nonexistent/model.gguf"),
        kind: "model_not_found",
        // Its own line, or, when its log thread lost it (the exit does not wait for that thread), speedgate's look at the path.
        summary: () =>
          new RegExp(
            "^(?:gguf_init_from_file: failed to open GGUF file '/nonexistent/model\\.gguf' \\(No such file or directory\\)" +
              "|-m /nonexistent/model\\.gguf: no such file or folder on the runner \\(found by speedgate after the engine exited; " +
              "its log does not say why\\))$",
          ),
        hint: /`-m`/,
      },
      {
        what: "a truncated GGUF",
        command: () => llamaServerCommand(server, corrupt),
        kind: "model_load_error",
        summary: () => "gguf_init_from_reader: failed to read key-value pairs",
        hint: /truncated/,
      },
    ])("$what: kind $kind at startup, a clean summary and a hint in llama.cpp's flags", async ({ command, kind, summary, hint }) => {
      // llama.cpp logs through a worker thread (common_log): a server that fails within milliseconds, as
      // on a taken port, now and then exits before that thread has written anything, and the card then
      // rightly says it printed nothing (1 start in about 6 full suites here). Such a start says nothing
      // about speedgate's classification, so it is started again, at most twice.
      let card = await playRound({ baseline: { command: command() }, prompts: 1 });
      for (let retry = 0; retry < 2 && card.failure?.logTail.length === 0; retry++)
        card = await playRound({ baseline: { command: command() }, prompts: 1 });
      expect(card.failure, JSON.stringify(card.failure)).toMatchObject({ engine: "baseline", stage: "startup", kind });
      const expected = summary();
      if (typeof expected === "string") expect(card.failure?.summary).toBe(expected);
      else expect(card.failure?.summary).toMatch(expected);
      expect(card.failure?.summary).not.toMatch(LOG_PREFIX);
      expect(card.failure?.hint).toMatch(hint);
      expect(card.failure?.hint).not.toMatch(PYTHON_ENGINE_FLAGS);
      // The tail keeps what llama.cpp printed, prefixes and all.
      expect(card.failure?.logTail.length).toBeGreaterThan(0);
    });
  });
});

describe.skipIf(!context)("crashes of the real binary: its own assertion and a segmentation fault, at startup and mid-benchmark", () => {
  const { server, model } = context ?? { server: "", model: "" };
  const crashAfter = (mode: "assert" | "segv", answers: number) => [
    "bash",
    join(launcher, "crash-after-answers.sh"),
    mode,
    server,
    model,
    "{port}",
    String(answers),
  ];
  /** llama.cpp's assertion line as ggml prints it, from wherever the binary was built. */
  const BATCH_ASSERTION = /(?:^|\/)src\/llama-context\.cpp:1722: GGML_ASSERT\(n_tokens_all <= cparams\.n_batch\) failed$/;

  it(
    "a candidate whose batch is smaller than a decode trips GGML_ASSERT at startup: assertion_failed, the assertion with its file and " +
      "line, the frames",
    async () => {
      const card = await playRound({
        baseline: { command: llamaServerCommand(server, model) },
        candidate: { command: llamaServerCommand(server, model, ["-b", "1", "-fit", "off"]) },
        prompts: 2,
      });
      const failure = card.failure ?? fail();
      expect(failure, JSON.stringify(failure)).toMatchObject({
        engine: "candidate",
        stage: "startup",
        kind: "assertion_failed",
        label: "assertion failed (GGML_ASSERT)",
      });
      expect(failure.summary).toMatch(BATCH_ASSERTION);
      expect(failure.hint).toContain("GGML_ASSERT at src/llama-context.cpp:1722");
      // gdb's frames when ggml could attach it, glibc's otherwise: never gdb's bookkeeping.
      expect(failure.frames?.length).toBeGreaterThan(0);
      for (const frame of failure.frames ?? []) expect(frame).not.toMatch(/Inferior|LWP|libthread_db|ggml_abort|wait4/);
      expect(describeFailureEvent(failure)).toBe("candidate engine aborted before becoming healthy");
    },
  );

  it(
    "a candidate that aborts on GGML_ASSERT after two answers: the card " + "names the prompt it was serving and shows the assertion",
    async () => {
      const card = await playRound({
        baseline: { command: llamaServerCommand(server, model) },
        candidate: { command: crashAfter("assert", 2) },
        bench: { requestIntervalMs: 150 },
      });
      const failure = card.failure ?? fail();
      expect(failure, JSON.stringify(failure)).toMatchObject({
        engine: "candidate",
        stage: "benchmark",
        kind: "assertion_failed",
        signal: "SIGABRT",
      });
      expect(failure.summary).toMatch(BATCH_ASSERTION);
      // The prompt it died on is the first it did not answer; the answers before it count.
      const prompt = failure.prompt ?? fail();
      expect(card.prompts[prompt.number - 1]?.id).toBe(prompt.id);
      expect(
        card.prompts.slice(0, prompt.number - 1).every((entry) => entry.candidate !== null && entry.score !== null && entry.score > 0),
      ).toBe(true);
      expect(card.prompts.filter((entry) => entry.candidate !== null).length).toBeGreaterThanOrEqual(1);
      expect(describeFailureEvent(failure)).toBe(`candidate engine aborted during prompt ${prompt.number} of the benchmark`);
      const markdown = renderMarkdown(card);
      expect(markdown).toContain(`Candidate engine aborted during prompt ${prompt.number} of the benchmark`);
      expect(markdown).toMatch(
        /\| Error \| `\S*src\/llama-context\.cpp:1722`: GGML_ASSERT\(n_tokens_all &lt;= cparams\.n_batch\) failed \|/,
      );
    },
  );

  it("a candidate whose server dies of SIGSEGV mid-benchmark: fatal_signal, not exited", async () => {
    const card = await playRound({
      baseline: { command: llamaServerCommand(server, model) },
      candidate: { command: crashAfter("segv", 2) },
      bench: { requestIntervalMs: 150 },
    });
    const failure = card.failure ?? fail();
    expect(failure, JSON.stringify(failure)).toMatchObject({
      engine: "candidate",
      stage: "benchmark",
      kind: "fatal_signal",
      label: "segmentation fault (SIGSEGV)",
      signal: "SIGSEGV",
    });
    expect(failure.summary).toMatch(/Segmentation fault/);
    expect(describeFailureEvent(failure)).toMatch(/^candidate engine crashed during (?:prompt \d+ of )?the benchmark$/);
  });
});

function fail(): never {
  throw new Error("expected a failure");
}
