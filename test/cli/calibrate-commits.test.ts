import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { regateScorecard } from "../../src/github/regate-scorecard.js";
import { readScorecard } from "../../src/scorecard/read-scorecard.js";
import { makeGitRepository } from "../support/git/make-git-repository.js";
import { makeTempDir } from "../support/make-temp-dir.js";
import { engineProfile, writeCommitsRound } from "../support/write-commits-round.js";
import { runCli } from "./support/sim-round.js";

/*
 * #39, as a newcomer on a llama.cpp team did it: the round config in the engine repository's .github/speedgate/,
 * runtime: process, each engine from its commit's engine/ folder. `run --base/--head` resolves that folder against
 * the repository; `calibrate` (no --base) resolved it against the config's folder (ENOENT ./serve.sh), and with a
 * folder written to suit it `run` refused the file and suggested the same command. Now calibrate takes --base as run
 * does, run gates on what it wrote, --check says the same before anything starts, and the app's re-gate of the
 * card (its settings naming the guard) gives the CLI's verdict.
 */
describe("speedgate calibrate --base, then run --base, with the round config in .github/speedgate/", () => {
  it("calibrates the folders run starts the engines in, and run, --check and the app's re-gate agree on a card with a guard", async () => {
    const repo = await makeGitRepository();
    const base = await repo.commit("the engine", { "engine/profile.json": engineProfile(5, 2) });
    await repo.git("checkout", "--quiet", "-b", "pr");
    // Faster tokens: the target (whole answers) gets faster; the guard (a first token alone) does not change.
    const head = await repo.commit("pull request: faster tokens", { "engine/profile.json": engineProfile(5, 0.25) });
    const configDir = join(repo.dir, ".github", "speedgate");
    await mkdir(configDir, { recursive: true });
    const configPath = await writeCommitsRound(configDir, {
      gate: { calibration: "./speedgate-calibration.json" },
      scenarios: [{ name: "answers" }, { name: "first-token", maxTokens: 1, gate: { role: "guard" } }],
    });
    const commits = ["--base", base, "--head", head, "--repo", repo.dir];

    const calibrated = await runCli(["calibrate", "--config", configPath, "--runs", "5", ...commits]);
    expect(calibrated.code, calibrated.logger.lines.map((line) => line.message).join("\n")).toBe(0);
    // Both seats ran the base: the study never builds or starts the head.
    expect(calibrated.stdout).toContain("noise floor: +");

    const checked = await runCli(["run", "--config", configPath, "--check", ...commits]);
    expect(checked.code, checked.logger.lines.map((line) => line.message).join("\n")).toBe(0);

    const out = await makeTempDir("speedgate-calibrated-commits-");
    const ran = await runCli(["run", "--config", configPath, "--out", out, ...commits]);
    expect(ran.code, ran.logger.lines.map((line) => line.message).join("\n")).toBe(0);
    const card = await readScorecard(join(out, "scorecard.json"));
    const scenarios = card.scenarios ?? [];
    expect(scenarios.map(({ name, card: one }) => [name, one.gate.role ?? "target", one.gate.use, one.gate.calibration?.problems])).toEqual(
      [
        ["answers", "target", "noise-floor", []],
        ["first-token", "guard", "noise-floor", []],
      ],
    );
    const guard = scenarios[1]?.card;
    // Within noise of 1.0 (nothing the head changed shows in a first token): the guard passes, calibrated.
    expect(guard?.gate.passed, JSON.stringify({ score: guard?.roundScore, bar: guard?.gate.bar, reason: guard?.gate.reason })).toBe(true);
    expect(guard?.gate.bar).toBeLessThan(0.95);
    // The target's verdict is the machine's to give (a loaded machine's noise floor can exceed any speedup): what must hold is
    // that the app gives the same one.

    // The app, with its settings naming the guard as the round config does: the check says what the card says.
    const appGate = { minRoundScore: 1, maxUnscored: 0.1, minPrompts: 1, scenarios: { "first-token": { role: "guard" as const } } };
    const regated = regateScorecard(card, appGate, null);
    expect(regated.gate.passed, regated.gate.reason).toBe(card.gate.passed);
    expect(regated.scenarios?.map(({ card: one }) => one.gate.passed)).toEqual(scenarios.map(({ card: one }) => one.gate.passed));
  }, 480_000);
});
