import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** Runs vitest, as `npm test` does, on one fixture file with the repository's test setup; resolves to its exit code and output. */
export async function runFixture(
  fixture: string,
  env: Record<string, string | undefined> = {},
): Promise<{ code: number | null; output: string }> {
  // The nested run is a run of its own: nothing of this worker's vitest state may leak into it.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("VITEST") && key !== "NODE_OPTIONS"));
  const child = spawn(
    process.execPath,
    [`${root}node_modules/vitest/vitest.mjs`, "run", "--config", "test/test-run/fixtures/vitest.fixture.config.ts"],
    {
      cwd: root,
      env: { ...inherited, FIXTURE: fixture, NO_COLOR: "1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  return { code, output };
}
