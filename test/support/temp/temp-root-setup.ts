import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * One temporary folder for the whole test run: every worker, and every process a test starts,
 * makes its temporary files in it (os.tmpdir() follows TMPDIR), so nothing a test run makes can
 * stay behind in the machine's /tmp. Each test file gets its own folder inside it
 * (isolate-temp-dir.ts), which fails the file that leaves something there.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const previous = process.env.TMPDIR;
  const root = await mkdtemp(join(tmpdir(), "speedgate-tests-"));
  process.env.TMPDIR = root;
  return async () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    const left = await readdir(root).catch(() => []);
    await rm(root, { recursive: true, force: true });
    // Only a file that crashed before its own check (or a process that outlived its test) gets here;
    // a file's folder is f-<its path under test/>-XXXXXX.
    if (left.length > 0) process.stderr.write(`\nspeedgate: the test run left ${left.length} temporary entr${left.length === 1 ? "y" : "ies"} in ${root} (removed now): ${left.join(", ")}\n`);
  };
}
