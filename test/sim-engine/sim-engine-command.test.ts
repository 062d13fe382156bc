import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { classifyFailure } from "../../src/failure/classify-failure.js";
import { sendStreamingRequest } from "../../src/client/send-streaming-request.js";
import { createSimNoise } from "../../src/sim-engine/sim-noise.js";
import { READY_LINE } from "../../src/sim-engine/start-sim-engine.js";
import { TEST_TOKENIZER_PATH } from "../../harness/fixtures/tokenizer/generate-tokenizer.js";
import { getFreePort } from "../support/get-free-port.js";
import { type CliProcess, spawnSpeedgateCli } from "./spawn-speedgate-cli.js";

const settings = { model: "sim-model", maxTokens: 100, thinking: false, requestTimeoutS: 30 };
const chat = (id: string) => ({ id, messages: [{ role: "user", content: id }] });

describe("speedgate sim-engine (as a process)", () => {
  let dir = "";
  const running: CliProcess[] = [];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "sim-engine-cli-"));
  });
  afterEach(() => {
    for (const cli of running.splice(0)) if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill("SIGKILL");
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const start = (args: string[]): CliProcess => {
    const cli = spawnSpeedgateCli(["sim-engine", ...args]);
    running.push(cli);
    return cli;
  };

  it("serves from a profile file, logs SGLang's ready line, and exits 0 on SIGTERM", async () => {
    const port = await getFreePort();
    const profile = join(dir, "profile.json");
    // The profile names prompts by id; its prompts file (relative to it) says which content each id is.
    await writeFile(join(dir, "profile-prompts.jsonl"), `${JSON.stringify(chat("long"))}\n`);
    await writeFile(
      profile,
      JSON.stringify({
        promptsFile: "profile-prompts.jsonl",
        defaults: { ttftMs: 1, itlMs: 0, outputTokens: 3 },
        prompts: { long: { outputTokens: 9 } },
      }),
    );
    const cli = start(["--port", String(port), "--profile", profile]);
    await cli.waitForLine(READY_LINE);
    const baseUrl = `http://127.0.0.1:${port}`;
    expect((await fetch(`${baseUrl}/health`)).status).toBe(200);
    const models = (await (await fetch(`${baseUrl}/v1/models`)).json()) as { data: Array<{ id: string }> };
    expect(models.data[0]?.id).toBe("sim-model");
    const short = await sendStreamingRequest({ baseUrl, prompt: chat("any"), settings });
    const long = await sendStreamingRequest({ baseUrl, prompt: chat("long"), settings });
    expect([short.ok && short.outputTokens, long.ok && long.outputTokens]).toEqual([3, 9]);
    cli.child.kill("SIGTERM");
    expect(await cli.exited).toEqual({ code: 0, signal: null });
  });

  it("stops streaming and exits 0 on SIGINT, mid-answer", async () => {
    const port = await getFreePort();
    const cli = start(["--port", String(port), "--ttft-ms", "1", "--itl-ms", "20", "--output-tokens", "10000"]);
    await cli.waitForLine(READY_LINE);
    const response = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ messages: [{ role: "user", content: "a" }], stream: true }),
    });
    const reader = response.body?.getReader() as ReadableStreamDefaultReader<Uint8Array> | undefined;
    expect((await reader?.read())?.done).toBe(false);
    cli.child.kill("SIGINT");
    expect(await cli.exited).toEqual({ code: 0, signal: null });
    expect(cli.stderr()).toContain("sim-engine: shut down");
    // The stream is cut, not finished: reading on fails or ends without [DONE].
    let rest = "";
    try {
      for (let part = await reader?.read(); part && !part.done; part = await reader?.read()) rest += new TextDecoder().decode(part.value);
    } catch {
      rest += "<cut>";
    }
    expect(rest).not.toContain("[DONE]");
  });

  it("crashes at start printing the given log with the given exit code", async () => {
    const log = join(dir, "crash.log");
    await writeFile(log, "Traceback (most recent call last):\ntorch.OutOfMemoryError: CUDA out of memory.\n");
    const cli = start(["--port", String(await getFreePort()), "--crash-log", log, "--crash-exit-code", "3"]);
    expect(await cli.exited).toEqual({ code: 3, signal: null });
    expect(cli.stderr()).toContain("torch.OutOfMemoryError: CUDA out of memory.");
    expect(cli.stderr()).not.toContain(READY_LINE);
  });

  it("reads the crash fault from the profile, with the log path relative to the profile", async () => {
    await writeFile(join(dir, "boom.log"), "ImportError: cannot import name 'fused_moe'\n");
    const profile = join(dir, "crash-profile.json");
    await writeFile(profile, JSON.stringify({ faults: { crashAtStart: { logFile: "boom.log", exitCode: 1 } } }));
    const cli = start(["--profile", profile]);
    expect(await cli.exited).toEqual({ code: 1, signal: null });
    expect(cli.stderr()).toContain("ImportError: cannot import name 'fused_moe'");
  });

  it("never becomes healthy with --never-healthy", async () => {
    const port = await getFreePort();
    const cli = start(["--port", String(port), "--never-healthy"]);
    await cli.waitForLine("listening on");
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(503);
    const record = await sendStreamingRequest({ baseUrl: `http://127.0.0.1:${port}`, prompt: chat("a"), settings });
    expect(record).toMatchObject({ ok: false, kind: "http_error" });
    expect(cli.stderr()).not.toContain(READY_LINE);
  });

  it("answers 503 on /health until the startup delay has passed", async () => {
    const port = await getFreePort();
    const cli = start(["--port", String(port), "--startup-delay-ms", "3000"]);
    await cli.waitForLine("listening on");
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(503);
    await cli.waitForLine(READY_LINE);
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
  });

  it("exits with the given code after N answered requests", async () => {
    const port = await getFreePort();
    const cli = start([
      "--port",
      String(port),
      "--die-after-requests",
      "2",
      "--die-exit-code",
      "7",
      "--output-tokens",
      "2",
      "--ttft-ms",
      "1",
    ]);
    await cli.waitForLine(READY_LINE);
    const baseUrl = `http://127.0.0.1:${port}`;
    expect((await sendStreamingRequest({ baseUrl, prompt: chat("a"), settings })).ok).toBe(true);
    expect((await sendStreamingRequest({ baseUrl, prompt: chat("b"), settings })).ok).toBe(true);
    expect(await cli.exited).toEqual({ code: 7, signal: null });
    expect(cli.stderr()).toMatch(/RuntimeError: sim-engine fault: exiting after 2 requests/);
    expect((await sendStreamingRequest({ baseUrl, prompt: chat("c"), settings })).ok).toBe(false);
  });

  it("applies prompt faults given as flags", async () => {
    const port = await getFreePort();
    const prompts = join(dir, "fault-prompts.jsonl");
    await writeFile(prompts, ["x", "y", "z"].map((id) => JSON.stringify(chat(id))).join("\n"));
    const cli = start([
      "--port",
      String(port),
      "--prompts",
      prompts,
      "--http-500",
      "x",
      "--malformed-sse",
      "y",
      "--stop-early",
      "z",
      "--output-tokens",
      "8",
      "--ttft-ms",
      "0",
      "--itl-ms",
      "0",
    ]);
    await cli.waitForLine(READY_LINE);
    const baseUrl = `http://127.0.0.1:${port}`;
    expect(await sendStreamingRequest({ baseUrl, prompt: chat("x"), settings })).toMatchObject({ ok: false, kind: "http_error" });
    expect(await sendStreamingRequest({ baseUrl, prompt: chat("y"), settings })).toMatchObject({ ok: false, kind: "stream_error" });
    expect(await sendStreamingRequest({ baseUrl, prompt: chat("z"), settings })).toMatchObject({
      ok: true,
      outputTokens: 2,
      finishReason: "stop",
    });
  });

  it("streams whole-word tokens of --tokenizer, and cheats as the cheat flags say", async () => {
    const port = await getFreePort();
    const cli = start([
      "--port",
      String(port),
      "--tokenizer",
      TEST_TOKENIZER_PATH,
      "--output-tokens",
      "6",
      "--ttft-ms",
      "0",
      "--itl-ms",
      "0",
      "--cheat-claim-tokens",
    ]);
    await cli.waitForLine(READY_LINE);
    const record = await sendStreamingRequest({ baseUrl: `http://127.0.0.1:${port}`, prompt: chat("a"), settings });
    if (!record.ok) expect.fail(record.reason);
    // One chunk of one word of that tokenizer, and a claim of all six tokens.
    expect(record.text?.content).toMatch(/^ \p{L}+$/u);
    expect([record.chunks.length, record.claimedTokens]).toEqual([1, 6]);
  });

  it("exits 2 naming the file when the prompts file cannot be read", async () => {
    const cli = start(["--prompts", join(dir, "missing.jsonl")]);
    expect(await cli.exited).toEqual({ code: 2, signal: null });
    expect(cli.stderr()).toMatch(/promptsFile: cannot read .*missing\.jsonl \(ENOENT\)/);
  });

  it("exits 1 with one line, no stack trace, when its port is taken, and the line reads as port_in_use", async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const port = (holder.address() as AddressInfo).port;
    try {
      const cli = start(["--port", String(port)]);
      expect(await cli.exited).toEqual({ code: 1, signal: null });
      const lines = cli.stderr().trim().split("\n");
      expect(lines).toEqual([
        `error: speedgate sim-engine: cannot listen on 127.0.0.1:${port}: address already in use (EADDRINUSE): another process ` +
          `listens there`,
      ]);
      expect(
        classifyFailure({ role: "candidate", stage: "startup", exit: { exitCode: 1, signal: null, oomKilled: false }, logLines: lines })
          .kind,
      ).toBe("port_in_use");
    } finally {
      await new Promise<void>((resolve) => holder.close(() => resolve()));
    }
  });

  it("exits 2 on a bad profile", async () => {
    const profile = join(dir, "bad.json");
    await writeFile(profile, JSON.stringify({ defaults: { itlMs: -1 } }));
    const cli = start(["--profile", profile]);
    expect(await cli.exited).toEqual({ code: 2, signal: null });
    expect(cli.stderr()).toContain("defaults.itlMs");
  });

  it("draws a reproducible speed for each start from --seed and --start-counter, and counts the starts", async () => {
    const counter = join(dir, "starts.txt");
    const factorOf = async (): Promise<string> => {
      const port = await getFreePort();
      const cli = start(["--port", String(port), "--run-variance", "0.05", "--jitter", "0.02", "--seed", "11", "--start-counter", counter]);
      await cli.waitForLine(READY_LINE);
      cli.child.kill("SIGTERM");
      await cli.exited;
      const line =
        cli
          .stderr()
          .split("\n")
          .find((text) => text.startsWith("sim-engine noise:")) ?? "";
      return /start (\d+), speed factor ([\d.]+)/.exec(line)?.slice(1).join(" ") ?? line;
    };
    const first = await factorOf();
    const second = await factorOf();
    const expected = [0, 1].map(
      (index) => `${index} ${createSimNoise({ jitter: 0.02, runVariance: 0.05, seed: 11 }, index).runFactor.toFixed(4)}`,
    );
    expect([first, second]).toEqual(expected);
    expect(expected[0]).not.toBe(expected[1]);
    expect(await readFile(counter, "utf8")).toBe("2\n");
  });
});
