import { availableParallelism } from "node:os";
import { performance } from "node:perf_hooks";

/** bench.busyPoll: whether the client keeps its event loop awake while streams are in flight. */
export type BusyPollSetting = "auto" | "on" | "off";

/** Below this many CPUs, `auto` leaves the loop to sleep: one core spinning would be taken from the engines. */
export const BUSY_POLL_MIN_CPUS = 4;

/** What `auto` means on a machine with `cpus` logical CPUs: a GPU runner has many, a 2-core CI machine does not. */
export function resolveBusyPoll(setting: BusyPollSetting, cpus: number = availableParallelism()): boolean {
  if (setting === "auto") return cpus >= BUSY_POLL_MIN_CPUS;
  return setting === "on";
}

/** One line for the round's log: what the client will do and why, so a timing figure can be read against it. */
export function describeBusyPoll(setting: BusyPollSetting, cpus: number = availableParallelism()): string {
  const on = resolveBusyPoll(setting, cpus);
  const why =
    setting === "auto"
      ? `bench.busyPoll auto, ${cpus} CPU${cpus === 1 ? "" : "s"}${on ? "" : `, under ${BUSY_POLL_MIN_CPUS}`}`
      : `bench.busyPoll ${setting}`;
  return `client busy poll ${on ? "on: the event loop stays awake while streams are in flight" : "off"} (${why})`;
}

let holders = 0;
let spinning = false;

/**
 * How long an idle turn of the loop waits before it polls again. Every poll costs an Immediate, and
 * a loop turning a million times a second with nothing to do made enough garbage for a scavenge
 * every few milliseconds, each of which holds up whatever chunk lands meanwhile (0.5 ms and more on
 * a 2-core machine, where the parallel scavenger's helpers wait for a core): those set the tail of
 * the client's timing error. Waiting 15 µs took an idle loop from about 800,000 turns a second to
 * 58,000 and a 1-stream benchmark from 1,161 scavenges to 66 (its p99 error from 0.9 to 0.3 ms on
 * this project's machine), and delays a read by 7.5 µs on average. A turn that found work (a read, a
 * timer) took longer than the pause already, so it does not wait.
 */
export const IDLE_TURN_PAUSE_MS = 0.015;

let lastTurnEnd = Number.NEGATIVE_INFINITY;
/**
 * Steps of integer arithmetic an idle turn runs. Steered every idle turn toward IDLE_TURN_PAUSE_MS,
 * because what a step costs changes as the JIT compiles the loop, and with the CPU's clock.
 */
let pauseSteps = 1024;
const MIN_PAUSE_STEPS = 16;
const MAX_PAUSE_STEPS = 1 << 22;
/** Written so that the arithmetic of the wait is not optimized away. */
let pauseSink = 0;

/** Integer arithmetic allocates nothing, where reading the clock (performance.now(), process.hrtime) allocates on every call. */
function runSteps(steps: number): void {
  let value = pauseSink;
  for (let step = 0; step < steps; step++) value = (Math.imul(value, 31) + step) | 0;
  pauseSink = value;
}

function spin(): void {
  if (holders === 0) {
    spinning = false;
    return;
  }
  const start = performance.now();
  if (start - lastTurnEnd < IDLE_TURN_PAUSE_MS) {
    runSteps(pauseSteps);
    const end = performance.now();
    // At most doubled or halved a turn: a scavenge during one pause must not send the next to nothing.
    const ratio = Math.min(2, Math.max(0.5, IDLE_TURN_PAUSE_MS / Math.max(end - start, 1e-6)));
    pauseSteps = Math.min(MAX_PAUSE_STEPS, Math.max(MIN_PAUSE_STEPS, Math.round(pauseSteps * ratio)));
    lastTurnEnd = end;
  } else lastTurnEnd = start;
  setImmediate(spin);
}

/**
 * Keeps this process's event loop from sleeping in epoll_wait until released. A pending immediate
 * makes every poll non-blocking, so a chunk is read (and stamped) when it lands instead of after the
 * kernel wakes an idle thread, which on a virtual machine takes 0.1 to 0.3 ms and sets most of the
 * client's timing error; timers of the open-loop schedule fire on time for the same reason. The
 * price is one core spinning while held. Holds nest: the loop sleeps again once every holder has
 * released, and releasing twice is harmless.
 */
export function keepEventLoopAwake(): () => void {
  holders++;
  if (!spinning) {
    spinning = true;
    setImmediate(spin);
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holders--;
  };
}

/** Holders not yet released (for tests and diagnostics). */
export function eventLoopAwakeHolders(): number {
  return holders;
}
