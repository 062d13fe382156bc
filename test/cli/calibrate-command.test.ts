import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { calibrationFileSchema } from "../../src/calibration/calibration-schema.js";
import { renderMarkdown } from "../../src/scorecard/render/render-markdown.js";
import { simEngineCommand, withPromptsFile, writeSimRound } from "../../harness/sim-engine/write-sim-round.js";
import { getFreePort } from "../support/get-free-port.js";
import { makeTempDir } from "../support/make-temp-dir.js";
import { type CliRoundOptions, runCli, runSimRound, simCommand, writeCliRound } from "./support/sim-round.js";

/*
 * `speedgate calibrate` end to end on the reference engine with its noise turned on: each start of
 * the engine draws its own speed (--run-variance, numbered by a start counter shared by every
 * start) and each request its own jitter, all from one seed. Then rounds that name the calibration.
 */

const PROMPTS = Array.from({ length: 12 }, (_, index) => `c${index + 1}`);

/** A round on the noisy engine; rounds of one calibration share the start counter, since the baseline's command must not change. */
async function noisyRound(
  counter: string | null,
  options: { candidate?: string[]; gate?: CliRoundOptions["gate"]; bench?: CliRoundOptions["bench"] } = {},
) {
  const dir = await makeTempDir("speedgate-run-test-");
  // Requests of about a third of a second, so that a loaded test machine's own hiccups (a garbage
  // collection, a late timer) stay small against the engine's timing and its injected noise.
  const noise = [
    "--ttft-ms",
    "40",
    "--itl-ms",
    "15",
    "--jitter",
    "0.03",
    "--run-variance",
    "0.02",
    "--seed",
    "3",
    "--start-counter",
    counter ?? join(dir, "starts.txt"),
  ];
  // The engine finds prompts through a prompts file: the first round's, the same text, so the baseline's command stays the same.
  const promptsFile = join(counter ? dirname(counter) : dir, "prompts.jsonl");
  const command = (...flags: string[]): string[] => withPromptsFile(simCommand(...noise, ...flags), promptsFile);
  return await writeCliRound({
    dir,
    promptIds: PROMPTS,
    baseline: { command: command() },
    candidate: { command: command(...(options.candidate ?? [])) },
    bench: { requestIntervalMs: 15, warmupRequests: 2, ...options.bench },
    gate: { minRoundScore: 1, ...options.gate },
  });
}

describe("speedgate calibrate against the reference engine", () => {
  it("writes a calibration from an A/A study that a round then gates on, and refuses it for a round with other settings", async () => {
    const round = await noisyRound(null);
    const counter = join(round.dir, "starts.txt");
    const out = join(round.dir, "calibration.json");
    const calibrated = await runCli(["calibrate", "--config", round.configPath, "--runs", "5", "--out", out]);
    expect(calibrated.code).toBe(0);
    const file = calibrationFileSchema.parse(JSON.parse(await readFile(out, "utf8")));
    expect(file.rounds).toHaveLength(5);
    expect(file.settings).toMatchObject({ prompts: 12, runs: 1, requestIntervalMs: 15 });
    expect(file.runner).toBeTruthy();
    // Five rounds of a noisy engine against itself do not all score the same: the spread is what the floor is made of.
    expect(new Set(file.rounds.map((entry) => entry.roundScore)).size).toBe(5);
    expect(file.noise.floor).toBeGreaterThan(0);
    // The baseline's agreement with itself: this engine never cuts or parts its own answers.
    expect(file.rounds.map((entry) => [entry.disagreed, entry.medianAgreement])).toEqual(Array.from({ length: 5 }, () => [0, 1]));
    expect(calibrated.stdout).toContain(`noise floor: +`);
    expect(calibrated.stdout).toContain("A/A study of sim-engine");
    expect(calibrated.stdout).toContain(
      "the baseline against itself: lowest median agreement 100%; at most 0% of the prompts cut short or parted in one round",
    );
    // Ten engine starts, each counted.
    expect(await readFile(counter, "utf8")).toBe("10\n");

    // A round that names it gates on the noise floor: a candidate four times as fast clears it. Not 2.4× (5 ms a
    // token): the twelve answers of an A/A round are in flight together, so a busy machine that holds one engine's
    // round back by a quarter of a second scores it 1.7×, and with five rounds that one lifts the bar to about 2.4×.
    const fast = await noisyRound(counter, { candidate: ["--itl-ms", "2"], gate: { calibration: out } });
    const { code, card } = await runSimRound(fast.configPath, fast.dir);
    expect(code).toBe(0);
    expect(
      card?.gate,
      JSON.stringify({ reasons: card?.gate.reasons, calibration: card?.gate.calibration, score: card?.roundScore }),
    ).toMatchObject({ use: "noise-floor", passed: true });
    expect(card?.gate.calibration?.scores).toEqual(file.rounds.map((entry) => entry.roundScore));
    expect(card?.gate.calibration?.noiseFloor).toBeCloseTo(file.noise.floor, 12);
    expect(card?.gate.calibration?.problems).toEqual([]);
    expect(card?.gate.calibration?.selfAgreement).toEqual({ lowestMedianAgreement: 1, mostDisagreed: 0 });
    expect(card?.gate.bar).toBeCloseTo(1 + file.noise.floor, 12);
    const markdown = renderMarkdown(card!);
    expect(markdown).toContain(`| Noise | noise floor +`);
    expect(markdown).toContain(`from 5 A/A rounds on runner ${file.runner}`);

    // Another request interval is another noise: refused before anything starts.
    const other = await noisyRound(counter, { gate: { calibration: out }, bench: { requestIntervalMs: 40 } });
    const refused = await runSimRound(other.configPath, other.dir);
    expect(refused.code).toBe(2);
    expect(refused.logger.lines.map((line) => line.message).join("\n")).toContain("bench.requestIntervalMs is 40, the calibration used 15");
    // Which is what calibrating again is for: it measures the round as it now is, over the file the config names.
    const again = await runCli(["calibrate", "--config", other.configPath, "--runs", "5", "--out", out]);
    expect(again.code).toBe(0);
    expect(calibrationFileSchema.parse(JSON.parse(await readFile(out, "utf8"))).settings.requestIntervalMs).toBe(40);
  }, 480_000);

  it("refuses fewer than five rounds, and writes nothing when the engine fails against itself", async () => {
    const round = await noisyRound(null);
    expect((await runCli(["calibrate", "--config", round.configPath, "--runs", "3"])).code).toBe(2);
    const broken = await writeCliRound({ promptIds: PROMPTS, baseline: { command: simCommand("--die-after-requests", "2") } });
    const out = join(broken.dir, "calibration.json");
    const failed = await runCli(["calibrate", "--config", broken.configPath, "--runs", "5", "--out", out]);
    expect(failed.code).toBe(1);
    expect(failed.logger.lines.map((line) => line.message).join("\n")).toMatch(
      /A\/A round 1 of 5 has no score.*no calibration was written/s,
    );
    await expect(readFile(out, "utf8")).rejects.toThrow(/ENOENT/);
  }, 120_000);

  it("measures a process round whose baseline runs in candidate.sourceDir (no baseline.cwd), with --host {host} filled", async () => {
    // The engine reads profile.json from the folder it runs in: started anywhere but the source, it dies at start.
    const dir = await makeTempDir("speedgate-run-test-");
    const source = join(dir, "engine");
    await mkdir(source);
    await writeFile(
      join(source, "profile.json"),
      JSON.stringify({ model: "m", defaults: { ttftMs: 5, itlMs: 1, outputTokens: 12, reasoningTokens: 0, tokensPerChunk: 1 } }),
    );
    // The candidate names only its source: no command of its own, and the baseline no folder.
    const configPath = await writeSimRound(dir, {
      port: await getFreePort(),
      prompts: { "prompts.jsonl": ["a", "b", "c", "d"].map((id) => ({ id, messages: [{ role: "user", content: `prompt ${id}` }] })) },
      baseline: { command: simEngineCommand("--host", "{host}", "--profile", "profile.json") },
      candidate: { sourceDir: "engine" },
      bench: { maxTokens: 64, requestIntervalMs: 20 },
      gate: { minRoundScore: 0.5, minPrompts: 4, use: "round-score" },
    });
    expect((await runSimRound(configPath, dir)).code).toBe(0);
    const out = join(dir, "calibration.json");
    const calibrated = await runCli(["calibrate", "--config", configPath, "--runs", "5", "--out", out]);
    expect(calibrated.code, calibrated.logger.lines.map((line) => line.message).join("\n")).toBe(0);
    expect(calibrationFileSchema.parse(JSON.parse(await readFile(out, "utf8"))).rounds).toHaveLength(5);
  }, 240_000);
});
