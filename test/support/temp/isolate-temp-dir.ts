import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, expect } from "vitest";

/*
 * Runs before each test file (setupFiles): the file's temporary folders go into a folder of its own,
 * and when the file is done (after its own afterAll hooks) anything still in it fails the file by
 * name. The folder is removed either way, so a leak fails once and never accumulates in /tmp.
 */
const parent = tmpdir();
// Named after the file: a file that fails while collecting its tests never runs the check below, and
// the run's own check (temp-root-setup.ts) then names the folder it left, so it names the file too.
const testPath = expect.getState().testPath;
const testFile = testPath ? relative(process.cwd(), testPath) : "this test file";
// At most 32 characters of it: tests put Unix sockets in here, and their paths are limited to 107 bytes.
const fileTag = testFile
  .replace(/^test\//, "")
  .replace(/\.test\.ts$/, "")
  .replace(/[^\w.-]+/g, "_")
  .slice(-32);
const own = mkdtempSync(join(parent, `f-${fileTag}-`));
process.env.TMPDIR = own;

/** tsx's compile cache (tsx-<uid>), made by the engines tests start from the sources: a tool's cache, not a test's leftover. */
const TOOL_CACHES = /^tsx-\d+$/;

afterAll(() => {
  process.env.TMPDIR = parent;
  const left = readdirSync(own).filter((name) => !TOOL_CACHES.test(name));
  rmSync(own, { recursive: true, force: true });
  if (left.length > 0) {
    throw new Error(
      `${testFile} left ${left.length} temporary entr${left.length === 1 ? "y" : "ies"} behind: ${left.join(", ")}. Remove what its ` +
        `tests create (an afterEach or afterAll that rm()s each folder), and give \`speedgate demo\` and \`run\` an --out inside such ` +
        `a folder.`,
    );
  }
});
