import type { Readable } from "node:stream";

export interface DrainBounds {
  /** How long the pipes may stay open with nothing arriving before the wait ends (something the engine started holds them). */
  quietMs: number;
  /** The longest the wait takes, whatever still arrives. */
  maxMs: number;
}

/**
 * Resolves once every pipe has closed, once they have been quiet for `quietMs`, or after `maxMs`.
 *
 * The quiet check runs after the loop has read what is waiting: a timer is only a reason to look.
 * On a loaded machine a process that was not scheduled for longer than the timer wakes with the timer
 * due and the engine's last bytes unread, and Node runs due timers before it polls for I/O. Ending
 * the wait in the timer lost the tail of a llama.cpp server that failed to load its model in 12 ms
 * ("exited with code 1 without printing anything"). An immediate runs after the poll, so by then
 * those bytes have arrived and count as recent.
 */
export function waitForPipesToDrain(pipes: readonly Readable[], bounds: DrainBounds): Promise<void> {
  return new Promise((resolve) => {
    if (pipes.every((pipe) => pipe.closed)) {
      resolve();
      return;
    }
    const started = performance.now();
    let lastData = started;
    let timer: NodeJS.Timeout | undefined;
    let finished = false;
    const onData = (): void => {
      lastData = performance.now();
    };
    const finish = (): void => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      for (const pipe of pipes) {
        pipe.off("data", onData);
        pipe.off("close", onClose);
      }
      resolve();
    };
    function onClose(): void {
      if (pipes.every((pipe) => pipe.closed)) finish();
    }
    const check = (): void => {
      setImmediate(() => {
        if (finished) return;
        const now = performance.now();
        const quiet = now - lastData;
        const left = bounds.maxMs - (now - started);
        if (quiet >= bounds.quietMs || left <= 0) finish();
        else timer = setTimeout(check, Math.min(bounds.quietMs - quiet, left));
      });
    };
    for (const pipe of pipes) {
      pipe.on("data", onData);
      pipe.on("close", onClose);
    }
    timer = setTimeout(check, Math.min(bounds.quietMs, bounds.maxMs));
  });
}
