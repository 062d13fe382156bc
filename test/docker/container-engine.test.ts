import type Dockerode from "dockerode";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { ContainerEngine } from "../../src/docker/container-engine.js";
import { classifyFailure } from "../../src/failure/classify-failure.js";
import { createRecordingLogger } from "../../src/logger.js";

/*
 * The daemon's log follow can end before the last lines of a container that died within milliseconds
 * reach it (Docker 20.10), or the wait can return while its copier still writes them (Docker 25 and
 * later): the record is whole once both the wait and the follow are over, and is read then, once. The
 * daemon is played here, since no real one drops those lines on demand. An engine can also die before
 * it logs why (llama-server's log thread does not hold up its exit): the model its command names is then
 * looked for in the container.
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

interface DyingOptions {
  /** Lines the follow carries before it ends. */
  followed: number;
  /**
   * "follow-first": the follow ends, then the wait returns (Docker 20.10: the driver closes before the container
   * is marked stopped). "wait-first": the wait returns while the daemon's copier still writes; the record holds
   * only `recordedEarly` lines until the follow ends (Docker 25 and later close the driver after marking it stopped).
   */
  order?: "follow-first" | "wait-first";
  recordedEarly?: number;
  /** What the exited container has on disk, for its command's model path. */
  command?: string[];
  files?: readonly string[];
}

/** A container as dockerode shows it, dying as `options` say; counts the reads of its whole log. */
function dyingContainer(options: DyingOptions): { container: Dockerode.Container; wholeLogReads: () => number } {
  const { followed, order = "follow-first", recordedEarly = LINES.length, command = ["llama-server"], files = [] } = options;
  let wholeLogReads = 0;
  let followEnded = false;
  const follow = new PassThrough();
  follow.once("end", () => (followEnded = true));
  let exited: () => void = () => undefined;
  const waited = new Promise<{ StatusCode: number }>((resolve) => {
    exited = () => resolve({ StatusCode: 1 });
  });
  const endFollow = (): void => {
    follow.end(Buffer.concat(LINES.slice(0, followed).map((line) => frame(2, `${line}\n`))));
  };
  const container = {
    logs: (logOptions: { follow?: boolean }): Promise<PassThrough | Buffer> => {
      if (logOptions.follow) {
        if (order === "follow-first") {
          // The follow's last frame comes, then it ends, and only then does the wait say the container exited.
          setImmediate(endFollow);
          follow.once("end", exited);
        } else {
          // The wait says the container exited; the copier's last lines, and the follow's end, come after.
          setImmediate(exited);
          void waited.then(() => setTimeout(endFollow, 50));
        }
        return Promise.resolve(follow);
      }
      wholeLogReads++;
      const recorded = followEnded ? LINES : LINES.slice(0, recordedEarly);
      return Promise.resolve(Buffer.concat(recorded.map((line) => frame(2, `${line}\n`))));
    },
    wait: async () => await waited,
    inspect: () =>
      Promise.resolve({
        State: { OOMKilled: false, ExitCode: 1 },
        Path: command[0],
        Args: command.slice(1),
        Config: { WorkingDir: "/work" },
      }),
    infoArchive: ({ path }: { path: string }) =>
      files.includes(path)
        ? Promise.resolve({})
        : Promise.reject(Object.assign(new Error("(HTTP code 404) no such container -  "), { statusCode: 404 })),
    stop: () => Promise.resolve(),
    remove: () => Promise.resolve(),
  };
  return { container: container as unknown as Dockerode.Container, wholeLogReads: () => wholeLogReads };
}

function engineOf(container: Dockerode.Container, family: "llama.cpp" | null = null): ContainerEngine {
  return new ContainerEngine(
    "baseline",
    "http://127.0.0.1:18481",
    container,
    createRecordingLogger(),
    2,
    new AbortController().signal,
    family,
  );
}

describe("ContainerEngine: a container that dies", () => {
  it("reads the daemon's whole log once the container has exited, so the line that says why reaches the classifier", async () => {
    const { container, wholeLogReads } = dyingContainer({ followed: 1 });
    const logger = createRecordingLogger();
    const engine = new ContainerEngine("baseline", "http://127.0.0.1:18481", container, logger, 2, new AbortController().signal);
    const exit = await engine.exited;
    // Once, after the follow ended: no second read to see whether it still grows.
    expect(wholeLogReads()).toBe(1);
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

  it("the daemon still writing after its wait returned: the record is read when the follow ends (the daemon's end of stream)", async () => {
    const { container, wholeLogReads } = dyingContainer({ followed: 1, order: "wait-first", recordedEarly: 1 });
    const engine = engineOf(container);
    const exit = await engine.exited;
    expect(wholeLogReads()).toBe(1);
    expect(engine.logTail()).toEqual(LINES);
    expect(classifyFailure({ role: "baseline", stage: "startup", exit, logLines: engine.logTail(), engine: "llama.cpp" }).kind).toBe(
      "port_in_use",
    );
    await engine.stop();
  });

  it("keeps the followed tail when it already holds every line", async () => {
    const { container } = dyingContainer({ followed: LINES.length });
    const engine = engineOf(container);
    await engine.exited;
    expect(engine.logTail()).toEqual(LINES);
    await engine.stop();
  });

  it("an engine that died before its log said why, of a model its command names: model_not_found from the container's files", async () => {
    // llama-server's worker thread lost its last lines: the log stops before the model is even named.
    const { container } = dyingContainer({
      followed: 0,
      recordedEarly: 0,
      command: ["sh", "-c", 'exec "$@"', "sh", "/usr/local/bin/llama-server", "-m", "models/missing.gguf", "--port", "8080"],
      files: ["/work/models/tiny.gguf"],
    });
    const engine = engineOf(container, "llama.cpp");
    const exit = await engine.exited;
    expect(exit.missingModel).toEqual({ flag: "-m", path: "models/missing.gguf", where: "container" });
    expect(classifyFailure({ role: "baseline", stage: "startup", exit, logLines: [], engine: "llama.cpp" })).toMatchObject({
      kind: "model_not_found",
      summary:
        "-m models/missing.gguf: no such file or folder in the engine's container (found by speedgate after the engine exited; " +
        "its log does not say why)",
    });
    await engine.stop();
  });

  it("a model the container has, or an engine speedgate does not know, is not called missing", async () => {
    const command = ["llama-server", "--model=/work/models/tiny.gguf"];
    const present = await engineOf(dyingContainer({ followed: 0, command, files: ["/work/models/tiny.gguf"] }).container, "llama.cpp")
      .exited;
    expect(present.missingModel).toBeUndefined();
    const unknown = await engineOf(dyingContainer({ followed: 0, command: ["llama-server", "-m", "/gone.gguf"] }).container).exited;
    expect(unknown.missingModel).toBeUndefined();
  });
});
