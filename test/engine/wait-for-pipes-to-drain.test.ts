import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { waitForPipesToDrain } from "../../src/engine/wait-for-pipes-to-drain.js";

/*
 * The wait after an engine's exit for the rest of its output, on fake time: what matters is the
 * order of a due timer, the I/O behind it and the check, which a real clock on a loaded machine only
 * shows now and then.
 */

const BOUNDS = { quietMs: 1_000, maxMs: 5_000 };

describe("waitForPipesToDrain", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "setImmediate", "performance"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function watch(pipes: PassThrough[]): { done: () => boolean } {
    let done = false;
    void waitForPipesToDrain(pipes, BOUNDS).then(() => (done = true));
    return { done: () => done };
  }

  it("waits for output that was due when its timer was: the engine's last bytes behind a stalled loop still count", async () => {
    const pipes = [new PassThrough(), new PassThrough()];
    const wait = watch(pipes);
    // Registered after the wait's own timer and due at the same moment: it runs after it, as the poll for I/O
    // runs after due timers when a process wakes from a stall.
    setTimeout(() => pipes[0]?.emit("data", Buffer.from("E srv  llama_server: exiting due to model loading error\n")), BOUNDS.quietMs);
    await vi.advanceTimersByTimeAsync(BOUNDS.quietMs);
    expect(wait.done()).toBe(false);
    for (const pipe of pipes) pipe.destroy();
    await vi.advanceTimersByTimeAsync(0);
    expect(wait.done()).toBe(true);
  });

  it("ends a second after the last output when something the engine started holds the pipes open", async () => {
    const pipes = [new PassThrough(), new PassThrough()];
    const wait = watch(pipes);
    await vi.advanceTimersByTimeAsync(600);
    pipes[1]?.emit("data", Buffer.from("last line\n"));
    await vi.advanceTimersByTimeAsync(999);
    expect(wait.done()).toBe(false);
    await vi.advanceTimersByTimeAsync(10);
    expect(wait.done()).toBe(true);
  });

  it("ends at the bound when output never stops", async () => {
    const pipes = [new PassThrough(), new PassThrough()];
    const wait = watch(pipes);
    const chatter = setInterval(() => pipes[0]?.emit("data", Buffer.from(".")), 100);
    await vi.advanceTimersByTimeAsync(BOUNDS.maxMs - 100);
    expect(wait.done()).toBe(false);
    await vi.advanceTimersByTimeAsync(200);
    expect(wait.done()).toBe(true);
    clearInterval(chatter);
  });

  it("ends when the last pipe closes, and at once when both already are", async () => {
    const pipes = [new PassThrough(), new PassThrough()];
    const wait = watch(pipes);
    pipes[0]?.destroy();
    await vi.advanceTimersByTimeAsync(0);
    expect(wait.done()).toBe(false);
    pipes[1]?.destroy();
    await vi.advanceTimersByTimeAsync(0);
    expect(wait.done()).toBe(true);
    const closed = watch(pipes);
    await vi.advanceTimersByTimeAsync(0);
    expect(closed.done()).toBe(true);
  });
});
