import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findPackageRoot } from "../../src/engine/locate-speedgate.js";
import { readScorecard } from "../../src/scorecard/read-scorecard.js";
import { runCli } from "./support/sim-round.js";
import { makeTempDir } from "../support/make-temp-dir.js";

describe("speedgate demo", () => {
  it("scores the embedded patch: faster, but it cuts two answers short, more than the gate allows, and the card says so", async () => {
    const out = await makeTempDir("speedgate-demo-test-");
    const { code, stdout } = await runCli(["demo", "--out", out]);
    expect(code).toBe(0);
    const card = await readScorecard(join(out, "scorecard.json"));
    expect(card.failure).toBeNull();
    expect(card.roundScore).toBeGreaterThan(1);
    expect(card.provenance.patchHash).toMatch(/^[0-9a-f]{64}$/);
    const below = card.prompts.filter((prompt) => prompt.status === "below_tolerance");
    expect(below.map((prompt) => prompt.id).sort()).toEqual(["story-lighthouse", "summarize-contract"]);
    for (const prompt of below) expect(prompt.reason).toMatch(/^answered \d+ of \d+ tokens \(tolerance 90%\)$/);
    expect(card.gate.passed).toBe(false);
    expect(card.gate.reasons).toContain("2 of 10 prompts (20%) were not scored (2 below tolerance), more than gate.maxUnscored 10%");
    expect(stdout.split("\n")[0]).toMatch(/^❌ Round score \d\.\d+×, but 2 of 10 prompts were not scored \(\+2 more reasons\)$/);
    expect(stdout).toContain("not calibrated");
    expect(stdout).toContain("below_tolerance");
  });

  it("finds its files from the package root", () => {
    expect(findPackageRoot()).toBe(join(import.meta.dirname, "..", ".."));
  });
});
