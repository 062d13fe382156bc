import { availableParallelism } from "node:os";

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
  const why = setting === "auto" ? `bench.busyPoll auto, ${cpus} CPU${cpus === 1 ? "" : "s"}${on ? "" : `, under ${BUSY_POLL_MIN_CPUS}`}` : `bench.busyPoll ${setting}`;
  return `client busy poll ${on ? "on: the event loop stays awake while streams are in flight" : "off"} (${why})`;
}

let holders = 0;
let spinning = false;

function spin(): void {
  if (holders > 0) setImmediate(spin);
  else spinning = false;
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
