import { randomUUID } from "node:crypto";
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { OWNER, REPO, workflowRunCompleted } from "../../harness/fake-github/adjust-payloads.js";
import { zipScorecard } from "../../harness/fake-github/make-test-scorecard.js";
import { deliverAndSettle } from "../../harness/fake-github/send-webhook.js";
import { serveRepository } from "../../harness/fake-github/serve-repository.js";
import { readScorecard } from "../../src/scorecard/read-scorecard.js";
import { useBotProcess } from "../support/fake-github/use-bot-process.js";
import { makeGitRepository } from "../support/git/make-git-repository.js";
import { makeTempDir } from "../support/make-temp-dir.js";
import { engineProfile, writeCommitsRound } from "../support/write-commits-round.js";
import { runCli } from "./support/sim-round.js";

/*
 * #39, as a newcomer on a llama.cpp team did it: the round config in the engine repository's .github/speedgate/,
 * runtime: process, each engine from its commit's engine/ folder. `run --base/--head` resolves that folder against
 * the repository; `calibrate` (no --base) resolved it against the config's folder (ENOENT ./serve.sh), and with a
 * folder written to suit it `run` refused the file and suggested the same command. Now calibrate takes --base as run
 * does, run gates on what it wrote, --check says the same before anything starts, and the app (`npm run bot`, a signed
 * delivery, the round config served from the default branch, its settings not naming the guard) gives the CLI's verdict.
 */
describe("speedgate calibrate --base, then run --base, with the round config in .github/speedgate/", () => {
  const { fake, bot } = useBotProcess();

  it("calibrates the folders run starts the engines in, and run, --check and the app's re-gate agree on a card with a guard", async () => {
    const repo = await makeGitRepository();
    // A first token of 80 ms, not 5: a loaded machine adds tens of milliseconds of its own to any request, which against 5 ms swung an
    // unchanged first token's score to 0.46× (a guard failing on the machine's noise, not the engine's).
    const base = await repo.commit("the engine", { "engine/profile.json": engineProfile(80, 2) });
    await repo.git("checkout", "--quiet", "-b", "pr");
    // Faster tokens: the target (whole answers) gets faster; the guard (a first token alone) does not change.
    const head = await repo.commit("pull request: faster tokens", { "engine/profile.json": engineProfile(80, 0.25) });
    const configDir = join(repo.dir, ".github", "speedgate");
    await mkdir(configDir, { recursive: true });
    const configPath = await writeCommitsRound(configDir, {
      gate: { calibration: "./speedgate-calibration.json" },
      // Where the app looks for it by default (roundConfig): the newcomer's settings need not name it.
      fileName: "round.yaml",
      scenarios: [{ name: "answers" }, { name: "first-token", maxTokens: 1, gate: { role: "guard" } }],
    });
    const commits = ["--base", base, "--head", head, "--repo", repo.dir];

    const calibrated = await runCli(["calibrate", "--config", configPath, "--runs", "5", ...commits]);
    expect(calibrated.code, calibrated.logger.lines.map((line) => line.message).join("\n")).toBe(0);
    // Both seats ran the base: the study never builds or starts the head.
    expect(calibrated.stdout).toContain("noise floor: +");

    const checked = await runCli(["run", "--config", configPath, "--check", ...commits]);
    expect(checked.code, checked.logger.lines.map((line) => line.message).join("\n")).toBe(0);
    // --check says which settings decide each bar on the app's check: this file's, with nothing to repeat in the app's settings.
    expect(checked.stdout).toMatch(/first-token: .+; a guard \(fails only when surely more than 5% slower\), bar from the round config\n/);
    expect(checked.stdout).not.toContain("the app's check would make it");

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

    // The app, its settings not naming the guard (their minPrompts only, as this six-prompt round's own): the check says what the card
    // says, for the round and each scenario, its bars read from the round config on the default branch.
    const app = bot();
    const pull = { number: 39, headSha: head, headRepo: `${OWNER}/${REPO}`, headBranch: "pr", author: "newcomer" };
    serveRepository(fake, {
      owner: OWNER,
      repo: REPO,
      appId: app.appId,
      config: "gate:\n  minPrompts: 1\n",
      files: { ".github/speedgate/round.yaml": await readFile(configPath, "utf8") },
      pulls: [pull],
      artifacts: { 3901: zipScorecard(card) },
    });
    const run = workflowRunCompleted({ id: 3901, headSha: head, headBranch: "pr", headRepo: pull.headRepo });
    expect(await deliverAndSettle(app, "workflow_run", run, randomUUID())).toBe(200);
    expect(fake.checkRuns.map((check) => check.conclusion)).toEqual([card.gate.passed ? "success" : "failure"]);
    const posted = fake.comments.find((comment) => comment.body.startsWith("<!-- speedgate -->"))?.body ?? "";
    expect(posted).toContain(
      "Bars from the round config on the default branch (`.github/speedgate/round.yaml`): **answers**, **first-token**.",
    );
    expect(posted).not.toContain("Another bar than the round's card");
    for (const { name, card: one } of scenarios) {
      expect(posted, name).toContain(`| **${name}** | ${one.gate.role ?? "target"} ≥ `);
      expect(posted, name).toMatch(new RegExp(`\\| \\*\\*${name}\\*\\* \\|.*\\| ${one.gate.passed ? "✅" : "❌"} `));
    }
  }, 480_000);
});
