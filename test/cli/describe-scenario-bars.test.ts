import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { describeScenarioBars } from "../../src/cli/describe-scenario-bars.js";
import { renderRoundPlan } from "../../src/cli/render-round-plan.js";
import { checkRound } from "../../src/config/load-round-config.js";
import { makeTempDir } from "../support/make-temp-dir.js";

/*
 * #39: `run --check` says which settings decide each scenario's bar on the app's check, by the rule the app's re-gate
 * follows (decideScenarioBar), and says why wherever the check would hold a scenario to another bar than the card.
 * The repository's folder is given, as --repo gives it: nothing here starts git.
 */
async function writeRepository(
  appSettings: string | null,
  configPath = ".github/speedgate/round.yaml",
): Promise<{ dir: string; config: string }> {
  const dir = await makeTempDir("speedgate-bars-");
  const config = join(dir, configPath);
  await mkdir(join(config, ".."), { recursive: true });
  await writeFile(join(config, "..", "prompts.jsonl"), '{"id":"c1","prompt":"hi"}\n');
  const round = {
    engine: "sim",
    runtime: "process",
    port: 30000,
    baseline: { command: ["serve"] },
    bench: { prompts: "prompts.jsonl", maxTokens: 64, concurrency: 1, contextLimit: 4096, tolerance: 0.9, runs: 3 },
    gate: { minRoundScore: 1 },
    scenarios: [{ name: "answers" }, { name: "first-token", maxTokens: 1, gate: { role: "guard" } }],
  };
  await writeFile(config, stringify(round));
  if (appSettings !== null) {
    await mkdir(join(dir, ".github"), { recursive: true });
    await writeFile(join(dir, ".github", "speedgate-app.yml"), appSettings);
  }
  return { dir, config };
}

describe("describeScenarioBars: run --check names the settings that decide each scenario's bar", () => {
  it("with the app's defaults (no settings file), every bar is this round config's and no note is needed", async () => {
    const { dir, config } = await writeRepository(null);
    const check = await checkRound(config);
    const bars = await describeScenarioBars(check, dir);
    expect(bars?.notes).toEqual([]);
    expect(Object.fromEntries(bars?.lines ?? [])).toEqual({
      answers: "a target at 1.00×, bar from the round config",
      "first-token": "a guard (fails only when surely more than 5% slower), bar from the round config",
    });
    expect(renderRoundPlan(check, [], bars)).toMatch(
      /first-token: .+; 3 runs; a guard \(fails only when surely more than 5% slower\), bar from/,
    );
  });

  it("says where the app's gate.scenarios decides another bar than the card's, and what to change", async () => {
    const { dir, config } = await writeRepository("gate:\n  scenarios:\n    first-token: { role: target }\n");
    const bars = await describeScenarioBars(await checkRound(config), dir);
    expect(bars?.lines.get("first-token")).toBe(
      "a guard (fails only when surely more than 5% slower), bar from the app's settings (.github/speedgate-app.yml)",
    );
    expect(bars?.notes).toEqual([
      "scenario first-token: the card makes it a guard (fails only when surely more than 5% slower), the app's check would make it " +
        "a target at 1.00× (from .github/speedgate-app.yml), which decides: make gate.scenarios.first-token in .github/speedgate-app.yml " +
        "say the same, or leave the bar to this file",
    ]);
  });

  it("says when the app reads its bars from another round config than this one", async () => {
    const { dir, config } = await writeRepository(null, "ci/round.yaml");
    const bars = await describeScenarioBars(await checkRound(config), dir);
    expect(bars?.notes).toEqual([
      "the app reads the scenarios' bars from .github/speedgate/round.yaml on the default branch, not from this file (ci/round.yaml): " +
        "set roundConfig: ci/round.yaml in .github/speedgate-app.yml if this is the round it scores",
      "scenario first-token: the card makes it a guard (fails only when surely more than 5% slower), the app's check would make it a " +
        "target at 1.00× (from the app's default settings (no .github/speedgate-app.yml here)), which decides: point roundConfig " +
        "at this file",
    ]);
    const named = await writeRepository("roundConfig: ci/round.yaml\n", "ci/round.yaml");
    expect((await describeScenarioBars(await checkRound(named.config), named.dir))?.notes).toEqual([]);
  });

  it("says nothing of bars for a round without scenarios", async () => {
    const dir = await makeTempDir("speedgate-bars-");
    const config = join(dir, "round.yaml");
    await writeFile(join(dir, "prompts.jsonl"), '{"id":"c1","prompt":"hi"}\n');
    await writeFile(
      config,
      stringify({
        engine: "sim",
        runtime: "process",
        port: 30000,
        baseline: { command: ["serve"] },
        bench: { prompts: "prompts.jsonl", maxTokens: 64, concurrency: 1, contextLimit: 4096, tolerance: 0.9 },
        gate: { minRoundScore: 1 },
      }),
    );
    expect(await describeScenarioBars(await checkRound(config), dir)).toBeNull();
  });
});
