import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

/*
 * A test file's temporary folders, removed when the file is done. The hook is registered when a test
 * file (or a support module it imports) loads this module, so it belongs to that file; the per-file
 * check (support/temp/isolate-temp-dir.ts) then finds nothing left.
 */
const made: string[] = [];

afterAll(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A fresh folder under the temporary folder, such as speedgate-config-Ab12Cd, removed after this test file. */
export async function makeTempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
