import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseRoundConfig } from "../../src/config/load-round-config.js";
import { processEngineCwd } from "../../src/engine/resolve-engine-cwd.js";
import { runSimRound } from "../cli/support/sim-round.js";
import { type SimRoundOptions, makePromptSet, simEngineCommand, writeSimRound } from "../../harness/sim-engine/write-sim-round.js";
import { getFreePort } from "../support/get-free-port.js";
import { makeTempDir } from "../support/make-temp-dir.js";

function processConfig(baseline: Record<string, unknown>, candidate: Record<string, unknown>) {
  return parseRoundConfig({
    engine: "sglang",
    runtime: "process",
    port: 30000,
    baseline: { command: ["python3", "-m", "sglang.launch_server"], ...baseline },
    candidate,
    bench: { prompts: "/p.jsonl", maxTokens: 8, requestIntervalMs: 0, contextLimit: 64, tolerance: 0.9 },
    gate: { minRoundScore: 1 },
  });
}

describe("processEngineCwd", () => {
  it("runs a patched candidate in the same folder of its copy as the baseline's folder in the source (SGLang's python/)", () => {
    const config = processConfig({ cwd: "/src/sglang/python" }, { patch: "/x.patch", sourceDir: "/src/sglang" });
    expect(processEngineCwd("baseline", config, "/cfg/round.yml", "/tmp/copy/sglang")).toBe("/src/sglang/python");
    expect(processEngineCwd("candidate", config, "/cfg/round.yml", "/tmp/copy/sglang")).toBe("/tmp/copy/sglang/python");
  });

  it("runs it where candidate.cwd says, mapped into the copy, when the engines differ", () => {
    const config = processConfig({ cwd: "/opt/bench" }, { patch: "/x.patch", sourceDir: "/src/sglang", cwd: "/src/sglang/python" });
    expect(processEngineCwd("baseline", config, "/cfg/round.yml", "/tmp/copy/sglang")).toBe("/opt/bench");
    expect(processEngineCwd("candidate", config, "/cfg/round.yml", "/tmp/copy/sglang")).toBe("/tmp/copy/sglang/python");
  });

  it("falls back to the copy's root when the baseline runs outside the source, and to the source itself without a baseline.cwd", () => {
    const outside = processConfig({ cwd: "/opt/bench" }, { patch: "/x.patch", sourceDir: "/src/sglang" });
    expect(processEngineCwd("candidate", outside, "/cfg/round.yml", "/tmp/copy/sglang")).toBe("/tmp/copy/sglang");
    const noCwd = processConfig({}, { patch: "/x.patch", sourceDir: "/src/sglang" });
    expect(processEngineCwd("baseline", noCwd, "/cfg/round.yml", "/tmp/copy/sglang")).toBe("/src/sglang");
    expect(processEngineCwd("candidate", noCwd, "/cfg/round.yml", "/tmp/copy/sglang")).toBe("/tmp/copy/sglang");
  });

  it("runs an unpatched candidate where the baseline runs, not at the source's root", () => {
    const config = processConfig({ cwd: "/src/sglang/python" }, { sourceDir: "/src/sglang" });
    expect(processEngineCwd("candidate", config, "/cfg/round.yml", null)).toBe("/src/sglang/python");
    expect(processEngineCwd("candidate", processConfig({}, {}), "/cfg/round.yml", null)).toBe("/cfg");
  });
});

describe("a process round with the engine's code in a subfolder (SGLang's python/), end to end", () => {
  const profile = (itlMs: number) => {
    const defaults = { ttftMs: 20, itlMs, outputTokens: 24, reasoningTokens: 0, tokensPerChunk: 1 };
    return `${JSON.stringify({ model: "m", defaults }, null, 2)}\n`;
  };
  // The reference engine reads profile.json from the folder it runs in, as `python -m sglang…` imports
  // the package beside it: run from the wrong folder, it dies at start.
  async function writeRound(baseline: SimRoundOptions["baseline"], candidate: SimRoundOptions["candidate"]) {
    const dir = await makeTempDir("speedgate-cwd-");
    await mkdir(join(dir, "sglang", "python"), { recursive: true });
    // Ten times as fast per token (a 40 ms gap against 4 ms): what a busy machine adds to every request
    // cannot bring that below the bar, while the unpatched copy scores about 1.
    await writeFile(join(dir, "sglang", "python", "profile.json"), profile(40));
    await mkdir(join(dir, "installed"), { recursive: true });
    await writeFile(join(dir, "installed", "profile.json"), profile(40));
    await writeFile(
      join(dir, "faster.patch"),
      `--- a/python/profile.json\n+++ b/python/profile.json\n@@ -4,3 +4,3 @@\n     "ttftMs": 20,\n-    "itlMs": 40,\n+    "itlMs": ` +
        `4,\n     "outputTokens": 24,\n`,
    );
    const configPath = await writeSimRound(dir, {
      engine: "sim",
      port: await getFreePort(),
      prompts: { "prompts.jsonl": makePromptSet("p", 4) },
      health: { timeoutS: 30 },
      baseline: { command: simEngineCommand("--profile", "profile.json"), ...baseline },
      candidate: { patch: "faster.patch", sourceDir: "sglang", ...candidate },
      bench: { model: "m", maxTokens: 64, requestIntervalMs: 20, runs: 4 },
      // Four prompts are enough to tell which folder the candidate ran in: the gate's minimum is lowered to
      // them, and it gates on the round score, since an interval needs at least five.
      gate: { minRoundScore: 1.2, minPrompts: 4, use: "round-score" },
    });
    return { dir, configPath };
  }

  it("starts the candidate in the copy's python/ when the baseline runs in python/, so the patch is what gets scored", async () => {
    const { dir, configPath } = await writeRound({ cwd: "sglang/python" }, {});
    const { code, card } = await runSimRound(configPath, dir);
    expect(code).toBe(0);
    expect(card?.failure).toBeNull();
    expect(card?.promptsScored).toBe(4);
    expect(card?.roundScore, JSON.stringify(card?.prompts)).toBeGreaterThan(1.2);
    expect(card?.gate.passed).toBe(true);
  });

  it("starts the candidate where candidate.cwd says when the baseline runs from somewhere else", async () => {
    const { dir, configPath } = await writeRound({ cwd: "installed" }, { cwd: "sglang/python" });
    const { code, card } = await runSimRound(configPath, dir);
    expect(code).toBe(0);
    expect(card?.failure).toBeNull();
    expect(card?.gate.passed).toBe(true);
  });
});
