import { execFile } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { monotonicOffsetMs } from "../src/monotonic-clock.js";

const MODULE = pathToFileURL(fileURLToPath(new URL("../src/monotonic-clock.ts", import.meta.url))).href;

describe("monotonicOffsetMs", () => {
  it("puts another process's reading between two of ours (one clock for all processes)", async () => {
    const before = performance.now() + monotonicOffsetMs();
    const { stdout } = await promisify(execFile)(process.execPath, [
      "--import",
      "tsx",
      "--input-type=module",
      "-e",
      `const { monotonicOffsetMs } = await import(${JSON.stringify(MODULE)}); process.stdout.write(String(performance.now() + ` +
        `monotonicOffsetMs()));`,
    ]);
    const after = performance.now() + monotonicOffsetMs();
    const theirs = Number(stdout);
    // A few microseconds of slack for each side's sampling of the offset.
    expect(theirs).toBeGreaterThan(before - 0.05);
    expect(theirs).toBeLessThan(after + 0.05);
  });
});
