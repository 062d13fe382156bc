import type Dockerode from "dockerode";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { ContainerEngine } from "../../src/docker/container-engine.js";
import { classifyFailure } from "../../src/failure/classify-failure.js";
import { createRecordingLogger } from "../../src/logger.js";

/*
 * The daemon's log follow can end before the last lines of a container that died within milliseconds
 * reach it: under load a taken port's "couldn't bind" line was missing and the card said `exited`. The
 * daemon is played here, since no real one drops those lines on demand: its follow ends one line short,
 * its wait then says the container exited, and its record of the log holds every line.
 */

/** Docker's multiplexed log frame: stream type, three zero bytes, big-endian length, payload. */
function frame(stream: 1 | 2, text: string): Buffer {
  const payload = Buffer.from(text);
  const header = Buffer.alloc(8);
  header.writeUInt8(stream, 0);
  header.writeUInt32BE(payload.length, 4);
  return Buffer.concat([header, payload]);
}

const LINES = [
  "0.00.004.556 I srv    load_model: loading model '/models/tiny.gguf'",
  "0.00.009.768 E srv         start: couldn't bind HTTP server socket, hostname: 127.0.0.1, port: 18481",
  "0.00.009.801 E srv  llama_server: exiting due to HTTP server error",
];

/**
 * A container as dockerode shows it, whose follow ends before its last lines arrive (it holds the first
 * `followed`), and whose record of the log holds only the first `recorded` lines at the first `lateReads` reads.
 */
function dyingContainer(
  followed: number,
  late: { recorded: number; lateReads: number } = { recorded: LINES.length, lateReads: 0 },
): { container: Dockerode.Container; wholeLogReads: () => number } {
  let wholeLogReads = 0;
  const follow = new PassThrough();
  let exited: () => void = () => undefined;
  const waited = new Promise<{ StatusCode: number }>((resolve) => {
    exited = () => resolve({ StatusCode: 1 });
  });
  const container = {
    logs: (options: { follow?: boolean }): Promise<PassThrough | Buffer> => {
      if (options.follow) {
        // The follow's last frame comes, then it ends, and only then does the wait say the container exited.
        setImmediate(() => {
          follow.end(Buffer.concat(LINES.slice(0, followed).map((line) => frame(2, `${line}\n`))));
          follow.once("end", exited);
        });
        return Promise.resolve(follow);
      }
      wholeLogReads++;
      const recorded = wholeLogReads <= late.lateReads ? LINES.slice(0, late.recorded) : LINES;
      return Promise.resolve(Buffer.concat(recorded.map((line) => frame(2, `${line}\n`))));
    },
    wait: async () => await waited,
    inspect: () => Promise.resolve({ State: { OOMKilled: false, ExitCode: 1 } }),
    stop: () => Promise.resolve(),
    remove: () => Promise.resolve(),
  };
  return { container: container as unknown as Dockerode.Container, wholeLogReads: () => wholeLogReads };
}

describe("ContainerEngine: a container that dies", () => {
  it("reads the daemon's whole log once the container has exited, so the line that says why reaches the classifier", async () => {
    const { container, wholeLogReads } = dyingContainer(1);
    const logger = createRecordingLogger();
    const engine = new ContainerEngine("baseline", "http://127.0.0.1:18481", container, logger, 2, new AbortController().signal);
    const exit = await engine.exited;
    // Read until two reads agree.
    expect(wholeLogReads()).toBe(2);
    expect(engine.logTail()).toEqual(LINES);
    const failure = classifyFailure({ role: "baseline", stage: "startup", exit, logLines: engine.logTail(), engine: "llama.cpp" });
    expect(failure).toMatchObject({
      kind: "port_in_use",
      summary: "start: couldn't bind HTTP server socket, hostname: 127.0.0.1, port: 18481",
    });
    // The lines the follow missed are at debug too, where --verbose shows the engine's log.
    expect(logger.lines.some((line) => line.level === "debug" && line.message.includes("couldn't bind HTTP server socket"))).toBe(true);
    await engine.stop();
  });

  it("reads the record again while it grows: the daemon wrote the last lines after it said the container stopped", async () => {
    const { container, wholeLogReads } = dyingContainer(1, { recorded: 1, lateReads: 1 });
    const engine = new ContainerEngine(
      "baseline",
      "http://127.0.0.1:18481",
      container,
      createRecordingLogger(),
      2,
      new AbortController().signal,
    );
    const exit = await engine.exited;
    expect(wholeLogReads()).toBe(3);
    expect(engine.logTail()).toEqual(LINES);
    expect(classifyFailure({ role: "baseline", stage: "startup", exit, logLines: engine.logTail(), engine: "llama.cpp" }).kind).toBe(
      "port_in_use",
    );
    await engine.stop();
  });

  it("keeps the followed tail when it already holds every line", async () => {
    const { container } = dyingContainer(LINES.length);
    const engine = new ContainerEngine(
      "candidate",
      "http://127.0.0.1:18481",
      container,
      createRecordingLogger(),
      2,
      new AbortController().signal,
    );
    await engine.exited;
    expect(engine.logTail()).toEqual(LINES);
    await engine.stop();
  });
});
