import { open, readFile, unlink } from "node:fs/promises";
import { isProcessAlive } from "../../../src/is-process-alive.js";

/**
 * Machine-wide, as the Docker daemon is: two test runs on one machine share its containers too.
 * Removed when released; one left by a killed run names a dead pid and is taken over.
 */
const LOCK_PATH = "/tmp/speedgate-tests-docker-stale-sweep.lock";
const RETRY_MS = 100;

async function tryAcquire(): Promise<boolean> {
  try {
    const handle = await open(LOCK_PATH, "wx");
    await handle.writeFile(String(process.pid));
    await handle.close();
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const owner = Number((await readFile(LOCK_PATH, "utf8").catch(() => "")).trim());
    // An owner still writing its pid reads as 0: wait for it rather than take the lock from it.
    if (Number.isInteger(owner) && owner > 0 && !isProcessAlive(owner)) await unlink(LOCK_PATH).catch(() => undefined);
    return false;
  }
}

/**
 * `speedgate cleanup --stale` removes the resources of every run whose process is gone, daemon-wide.
 * A test that kills a run and leaves its containers for something else to sweep (the action's post
 * step, the cleanup command), and a test that sweeps stale runs, hold this lock for that span: with
 * test files in parallel, one's stale sweep took the other's killed run's container before its own
 * sweep could (the post step then swept 0 containers, not 1). A test run's closing sweep of what its
 * tests left (docker-global-setup) takes it too: another run on the same machine, finishing while a
 * killed run's container waited for its post step, removed it as a leftover whose maker was gone.
 */
export async function withStaleSweepLock<T>(body: () => Promise<T>): Promise<T> {
  while (!(await tryAcquire())) await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  try {
    return await body();
  } finally {
    await unlink(LOCK_PATH).catch(() => undefined);
  }
}
