import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./support/sim-round.js";
import { makeTempDir } from "../support/make-temp-dir.js";

/*
 * A real run refuses a config whose paths are not all there before any engine starts: a missing
 * candidate.sourceDir used to let the baseline run in full and then crash with a stack trace and no
 * card, and a missing baseline.cwd was blamed on the engine.
 */

async function writeRound(config: (marker: string) => Record<string, unknown>) {
  const dir = await makeTempDir("speedgate-preflight-");
  await mkdir(join(dir, "engine"), { recursive: true });
  await writeFile(join(dir, "prompts.jsonl"), '{"id": "p1", "prompt": "hello"}\n');
  await writeFile(join(dir, "fix.patch"), "--- a/profile.json\n+++ b/profile.json\n@@ -1 +1 @@\n-{}\n+{ }\n");
  const marker = join(dir, "engine-started");
  const configPath = join(dir, "round.yml");
  await writeFile(configPath, JSON.stringify(config(marker)));
  return { dir, configPath, marker, out: join(dir, "out") };
}

const base = (marker: string) => ({
  engine: "sim",
  runtime: "process",
  port: 30000,
  // An engine that would leave a file behind the moment it started.
  baseline: { command: ["{node}", "-e", `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "")`] },
  bench: { prompts: "prompts.jsonl", maxTokens: 16, requestIntervalMs: 10, contextLimit: 1024, tolerance: 0.9, runs: 1 },
  gate: { minRoundScore: 1 },
  health: { timeoutS: 5, intervalMs: 20 },
});

async function run(configPath: string, out: string) {
  const result = await runCli(["run", "--config", configPath, "--out", out]);
  return { code: result.code, errors: result.logger.lines.filter((line) => line.level === "error").map((line) => line.message) };
}

describe("speedgate run checks every path before anything starts", () => {
  it("refuses a missing candidate.sourceDir with exit 2: the baseline never starts and no card is written", async () => {
    const { configPath, marker, out } = await writeRound((m) => ({ ...base(m), candidate: { patch: "fix.patch", sourceDir: "sglang" } }));
    const { code, errors } = await run(configPath, out);
    expect(code).toBe(2);
    expect(errors).toEqual([
      `${configPath}: candidate.sourceDir: expected an existing folder (the source copied and patched for the candidate), got ` +
        `"sglang": ${join(configPath, "..", "sglang")} does not exist`,
    ]);
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(out)).toBe(false);
  });

  it("refuses a missing baseline.cwd instead of blaming the engine", async () => {
    const { configPath, marker, out } = await writeRound((m) => ({ ...base(m), baseline: { ...base(m).baseline, cwd: "engine/python" } }));
    const { code, errors } = await run(configPath, out);
    expect(code).toBe(2);
    expect(errors).toEqual([
      expect.stringContaining('baseline.cwd: expected an existing folder (where the baseline engine runs), got "engine/python"'),
    ]);
    expect(existsSync(marker)).toBe(false);
  });

  it("refuses a Docker round whose weights folder is not on this machine, before touching Docker", async () => {
    const { configPath, out } = await writeRound((m) => ({
      ...base(m),
      runtime: "docker",
      baseline: { image: "speedgate-no-such-image:never", command: ["true"] },
      docker: { mounts: [{ source: "/nonexistent/speedgate-weights/Qwen3-8B", target: "/models/Qwen3-8B" }] },
    }));
    const { code, errors } = await run(configPath, out);
    expect(code).toBe(2);
    expect(errors).toEqual([
      `${configPath}: docker.mounts[0].source: expected an existing file or folder (mounted at /models/Qwen3-8B, read-only), got ` +
        `"/nonexistent/speedgate-weights/Qwen3-8B": it does not exist`,
    ]);
    expect(existsSync(out)).toBe(false);
  });
});
