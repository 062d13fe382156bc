import { createHash } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { Scorecard } from "../../src/scorecard/scorecard-schema.js";
import { PROMPT_IDS, runCli, runSimRound, simCommand, writeCliRound } from "./support/sim-round.js";

const seedLog = fileURLToPath(new URL("../failure/fixtures/sglang-cuda-graph-oom.log", import.meta.url));

function promptsOf(card: Scorecard | null) {
  if (!card) throw new Error("expected a card");
  return new Map(card.prompts.map((prompt) => [prompt.id, prompt]));
}

describe("speedgate run against the reference engine", () => {
  it("scores a clean round and writes both files", async () => {
    const { dir, configPath } = await writeCliRound({});
    const { code, card, stdout, out } = await runSimRound(configPath, dir);
    expect(code).toBe(0);
    expect(card?.failure).toBeNull();
    expect(card?.promptsScored).toBe(PROMPT_IDS.length);
    expect(card?.prompts.every((prompt) => prompt.status === "scored" && prompt.candidate?.outputTokens === 20)).toBe(true);
    expect(card?.provenance.configHash).toMatch(/^[0-9a-f]{64}$/);
    expect(stdout).toContain("Round score");
    expect(await readFile(join(out, "scorecard.md"), "utf8")).toContain("<!-- speedgate -->");
  });

  it("reports a candidate that crashes at start with the seed's CUDA graph OOM, keeping its traceback lines", async () => {
    const { dir, configPath } = await writeCliRound({
      candidate: { command: simCommand("--crash-log", seedLog, "--crash-exit-code", "1") },
    });
    const { code, card } = await runSimRound(configPath, dir);
    expect(code).toBe(0);
    expect(card?.failure).toMatchObject({
      engine: "candidate",
      stage: "startup",
      kind: "cuda_oom",
      label: "CUDA out of memory during CUDA graph capture",
      exitCode: 1,
    });
    expect(card?.failure?.summary).toMatch(/^torch\.OutOfMemoryError: CUDA out of memory\. Tried to allocate 136\.00 MiB/);
    expect(card?.failure?.logTail).toContain('  File "/src/python/sglang/srt/models/qwen2_moe.py", line 254, in forward');
    expect(card?.failure?.logTail).toContain("    gate_up, _ = self.gate_up_proj(x)");
    const prompts = promptsOf(card);
    expect([...prompts.values()].every((prompt) => prompt.status === "zeroed")).toBe(true);
    expect(prompts.get("p1")?.reason).toContain("candidate engine failed at startup");
    expect(card?.gate.passed).toBe(false);
  });

  it("reports an engine that never becomes healthy within the health timeout the test asks for", async () => {
    // The timeout holds for the baseline too, which starts first: reference engines took up to 4.7 s to answer in
    // suite runs beside two CPU-bound processes, so 6 s could time out the wrong engine.
    const { dir, configPath } = await writeCliRound({ candidate: { command: simCommand("--never-healthy") }, health: { timeoutS: 15 } });
    const { card } = await runSimRound(configPath, dir);
    expect(card?.failure).toMatchObject({ engine: "candidate", stage: "startup", kind: "startup_timeout", exitCode: null });
    expect(card?.failure?.label).toContain("15 s");
  });

  it("zeroes the prompts an engine never answered when it dies during the benchmark, with the reason", async () => {
    const { dir, configPath } = await writeCliRound({
      candidate: { command: simCommand("--die-after-requests", "2", "--die-exit-code", "3") },
      bench: { requestIntervalMs: 150 },
    });
    const { card } = await runSimRound(configPath, dir);
    expect(card?.failure).toMatchObject({ engine: "candidate", stage: "benchmark", exitCode: 3 });
    const prompts = promptsOf(card);
    expect(prompts.get("p1")?.status).toBe("scored");
    const last = prompts.get("p6");
    expect(last?.status).toBe("zeroed");
    expect(last?.reason).toMatch(/^candidate engine exited with code 3 during the benchmark: /);
  });

  it("never passes a candidate that is twice as fast but dies before the last prompt, and says why on the card", async () => {
    // Answers take 220 ms against 110 ms and one starts every 100 ms, so only the last prompt is left
    // when it dies; tenths of a second, since a busy machine adds tens of milliseconds to each.
    const ids = Array.from({ length: 20 }, (_, index) => `q${index + 1}`);
    const { dir, configPath } = await writeCliRound({
      promptIds: ids,
      baseline: { command: simCommand("--ttft-ms", "20", "--itl-ms", "10") },
      candidate: { command: simCommand("--ttft-ms", "10", "--itl-ms", "5", "--die-after-requests", "19") },
      bench: { requestIntervalMs: 100 },
      gate: { use: "round-score" },
    });
    const { code, card, stdout } = await runSimRound(configPath, dir, ["--fail-on-gate"]);
    expect(code).toBe(1);
    expect(card?.failure).toMatchObject({ engine: "candidate", stage: "benchmark" });
    // One prompt in twenty is within gate.maxUnscored, and the median is far above the bar: only the crash keeps it out.
    expect(card?.roundScore).toBeGreaterThan(1.2);
    expect(card?.zeroedTotal).toBe(1);
    expect(card?.gate.passed).toBe(false);
    expect(card?.gate.reasons).toEqual([expect.stringMatching(/^the candidate engine failed: candidate engine failed at benchmark/)]);
    // #39: the crash leads, before the score of what ran before it, and says who acts.
    const lines = stdout.split("\n");
    expect(lines[0]).toMatch(/^❌ Candidate engine died during (prompt \d+ of )?the benchmark.*; round score before it \d\.\d+×$/);
    expect(lines[2]).toMatch(/^candidate engine died during /);
    expect(lines[3]).toMatch(/^For the author of the pull request: the baseline, the same engine without the patch, ran the same command /);
    expect(stdout.indexOf("For the author of the pull request:")).toBeLessThan(stdout.indexOf("Round score"));
  });

  it("never passes a faster candidate that cuts more than gate.maxUnscored of its answers short", async () => {
    const ids = Array.from({ length: 12 }, (_, index) => `q${index + 1}`);
    const { dir, configPath } = await writeCliRound({
      promptIds: ids,
      candidate: { command: simCommand("--itl-ms", "0.5", "--stop-early", "q1,q2") },
    });
    const { code, card } = await runSimRound(configPath, dir, ["--fail-on-gate"]);
    expect(code).toBe(1);
    expect(card?.failure).toBeNull();
    expect(card?.belowTolerance).toBe(2);
    expect(card?.gate.passed).toBe(false);
    expect(card?.gate.reasons).toContain("2 of 12 prompts (16.7%) were not scored (2 below tolerance), more than gate.maxUnscored 10%");
  });

  it("scores early stops, HTTP 500 and malformed SSE per prompt with their reasons", async () => {
    const { dir, configPath } = await writeCliRound({
      candidate: { command: simCommand("--stop-early", "p2", "--http-500", "p3", "--malformed-sse", "p4") },
    });
    const { card } = await runSimRound(configPath, dir);
    expect(card?.failure).toBeNull();
    const prompts = promptsOf(card);
    expect(prompts.get("p1")?.status).toBe("scored");
    expect(prompts.get("p2")).toMatchObject({ status: "below_tolerance", score: 0 });
    expect(prompts.get("p2")?.reason).toMatch(/^answered \d+ of 20 tokens/);
    expect(prompts.get("p3")).toMatchObject({ status: "zeroed", score: 0 });
    expect(prompts.get("p3")?.reason).toContain("500");
    expect(prompts.get("p4")?.status).toBe("zeroed");
    expect(prompts.get("p4")?.candidate?.error).toBeTruthy();
    expect(card?.belowTolerance).toBe(1);
  });

  it("skips the candidate when the baseline fails and says the baseline failed", async () => {
    const { dir, configPath } = await writeCliRound({
      baseline: { command: simCommand("--crash-log", seedLog, "--crash-exit-code", "1") },
    });
    const { card } = await runSimRound(configPath, dir);
    expect(card?.failure).toMatchObject({ engine: "baseline", stage: "startup", kind: "cuda_oom" });
    expect(card?.prompts.every((prompt) => prompt.status === "excluded" && prompt.candidate === null)).toBe(true);
  });

  it("reports a patch that does not apply, naming the file and the hunk", async () => {
    const { dir, configPath } = await writeCliRound({ candidate: { sourceDir: "src", patch: "change.patch" } });
    await mkdir(join(dir, "src"));
    await writeFile(join(dir, "src", "settings.txt"), "alpha\nbeta\ngamma\n");
    await writeFile(join(dir, "change.patch"), "--- a/settings.txt\n+++ b/settings.txt\n@@ -1,3 +1,3 @@\n alpha\n-BETA\n+delta\n gamma\n");
    const { card } = await runSimRound(configPath, dir);
    expect(card?.failure).toMatchObject({ engine: "candidate", stage: "patch", kind: "patch_conflict" });
    expect(card?.failure?.summary).toBe("settings.txt: hunk #1 (at line 1) does not apply");
    // The patch is applied before any engine starts: the baseline was never started, let alone benchmarked.
    expect(card?.runs.completed).toBe(0);
    expect(card?.prompts.every((prompt) => prompt.baseline === null && prompt.runs.length === 0)).toBe(true);
    expect(card?.failure?.logTail.join("\n")).toContain("settings.txt");
    expect(await readFile(join(dir, "src", "settings.txt"), "utf8")).toBe("alpha\nbeta\ngamma\n");
  });

  it("applies a --patch given on the command line to a copy of sourceDir and runs the candidate there", async () => {
    const { dir, configPath } = await writeCliRound({
      candidate: { command: simCommand("--profile", "profile.json"), sourceDir: "engine" },
    });
    await mkdir(join(dir, "engine"));
    await writeFile(join(dir, "engine", "profile.json"), '{\n  "faults": {\n    "stopEarly": []\n  }\n}\n');
    const patch =
      '--- a/profile.json\n+++ b/profile.json\n@@ -1,5 +1,5 @@\n {\n   "faults": {\n-    "stopEarly": []\n+    "stopEarly": ["p2"]\n ' +
      "  }\n }\n";
    await writeFile(join(dir, "stop-early.patch"), patch);
    const { card } = await runSimRound(configPath, dir, ["--patch", join(dir, "stop-early.patch")]);
    expect(card?.failure).toBeNull();
    expect(card?.provenance.patchHash).toBe(createHash("sha256").update(patch).digest("hex"));
    const prompts = promptsOf(card);
    expect(prompts.get("p2")?.status).toBe("below_tolerance");
    expect(prompts.get("p1")?.status).toBe("scored");
    expect(await readFile(join(dir, "engine", "profile.json"), "utf8")).toContain('"stopEarly": []');
  });

  it("exits 2 and writes nothing for a patch that is not a well-formed diff, as --check does: no card, no engine started", async () => {
    const { dir, configPath } = await writeCliRound({ candidate: { sourceDir: "src" } });
    await mkdir(join(dir, "src"));
    await writeFile(join(dir, "src", "settings.txt"), "alpha\nbeta\n");
    // A hunk cut short: its header promises three lines, the file ends after two.
    await writeFile(join(dir, "cut.patch"), "--- a/settings.txt\n+++ b/settings.txt\n@@ -1,3 +1,3 @@\n alpha\n-beta\n");
    const out = join(dir, "out");
    const { code, logger } = await runCli(["run", "--config", configPath, "--patch", join(dir, "cut.patch"), "--out", out]);
    expect(code).toBe(2);
    expect(logger.lines.map((line) => line.message).join("\n")).toMatch(
      /cut\.patch\): expected a well-formed unified diff, but the hunk at line 3 is cut short/,
    );
    await expect(readFile(join(out, "scorecard.json"), "utf8")).rejects.toThrow(/ENOENT/);
    expect(logger.lines.some((line) => line.message.includes("starting engine"))).toBe(false);
  });

  it("exits 1 with --fail-on-gate when the gate does not pass", async () => {
    const { dir, configPath } = await writeCliRound({
      candidate: { command: simCommand("--stop-early", "p1,p2,p3,p4") },
      gate: { minRoundScore: 1.2 },
    });
    expect((await runSimRound(configPath, dir, ["--fail-on-gate"])).code).toBe(1);
  });

  it("exits 2 on a bad config or usage", async () => {
    const { dir, configPath } = await writeCliRound({});
    await writeFile(configPath, "engine: x\nruntime: process\n");
    expect((await runCli(["run", "--config", configPath, "--out", join(dir, "out")])).code).toBe(2);
    expect((await runCli(["run", "--config", configPath])).code).toBe(2);
    expect((await runCli(["run", "--config", configPath, "--out", dir, "--format", "pdf"])).code).toBe(2);
  });
});
