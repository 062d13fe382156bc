import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { failRunAtTeardown } from "../prerequisites/missing-prerequisites.js";
import { findRunProcesses } from "./find-run-processes.js";

/**
 * What is left in the run's folder. A file whose tests were all skipped never runs its afterAll hooks,
 * so its own folder (f-…) stays, empty: that is not a leak.
 */
async function leftEntries(root: string): Promise<string[]> {
  const entries = await readdir(root).catch(() => []);
  const isEmptyFileFolder = async (name: string): Promise<boolean> =>
    name.startsWith("f-") && (await readdir(join(root, name)).catch(() => ["?"])).length === 0;
  const empty = await Promise.all(entries.map(isEmptyFileFolder));
  return entries.filter((_, index) => !empty[index]);
}

/**
 * One temporary folder for the whole test run: every worker, and every process a test starts,
 * makes its temporary files in it (os.tmpdir() follows TMPDIR), so nothing a test run makes can
 * stay behind in the machine's /tmp. Each test file gets its own folder inside it
 * (isolate-temp-dir.ts), which fails the file that leaves something there.
 *
 * At the end the run checks that it left nothing running and nothing in the folder: a process it
 * started that outlived its test (an engine, a CLI, an app) is killed, the folder removed, and
 * either fails the run by name.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const previous = process.env.TMPDIR;
  const root = await mkdtemp(join(tmpdir(), "speedgate-tests-"));
  process.env.TMPDIR = root;
  return async () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    const running = findRunProcesses(root);
    for (const { pid } of running) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // Gone meanwhile.
      }
    }
    const left = await leftEntries(root);
    await rm(root, { recursive: true, force: true });
    const problems: string[] = [];
    if (running.length > 0) {
      problems.push(
        `the test run left ${running.length} process${running.length === 1 ? "" : "es"} running (killed now): ` +
          `${running.map((entry) => `${entry.pid} ${entry.command}`).join("; ")}`,
      );
    }
    // Only a file that crashed before its own check (or a process that outlived its test) gets here;
    // a file's folder is f-<its path under test/>-XXXXXX.
    if (left.length > 0)
      problems.push(
        `the test run left ${left.length} temporary entr${left.length === 1 ? "y" : "ies"} in ${root} (removed now): ${left.join(", ")}`,
      );
    if (problems.length > 0) failRunAtTeardown(`speedgate: ${problems.join("\nspeedgate: ")}`);
  };
}
