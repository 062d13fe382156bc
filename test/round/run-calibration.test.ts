import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { checkRound } from "../../src/config/load-round-config.js";
import { resolveRoundEngines } from "../../src/config/resolve-round-engines.js";
import { aaRound } from "../../src/round/run-calibration.js";

const REPO = resolve(import.meta.dirname, "..", "..");
const ROUNDS = join(REPO, "examples", "rounds");
/** Every round config the repository ships: what a newcomer copies first. */
const SHIPPED = [
  ...readdirSync(ROUNDS)
    .filter((name) => name.endsWith(".yaml"))
    .map((name) => join(ROUNDS, name)),
  join(REPO, "examples", "demo", "round.yml"),
  join(REPO, "examples", "engine-repository", ".github", "speedgate", "round.yaml"),
];

describe("aaRound: calibrate runs the baseline that run runs, in both seats", () => {
  it.each(SHIPPED.map((path) => [path.slice(REPO.length + 1), path]))("%s", async (_name, path) => {
    const { round } = await checkRound(path);
    const aa = aaRound(round);
    const run = resolveRoundEngines(round.config, round.configPath);
    const calibrate = resolveRoundEngines(aa.config, aa.configPath);
    expect(calibrate.baseline).toEqual(run.baseline);
    expect(calibrate.candidate).toEqual(run.baseline);
    expect(aa.patch).toBeNull();
    expect(aa.config.candidate).toEqual({ postPatch: [], trusted: round.config.candidate.trusted });
  });

  it("keeps a process baseline in candidate.sourceDir when baseline.cwd is not set, though the A/A candidate names no source", async () => {
    const demo = (await checkRound(join(REPO, "examples", "demo", "round.yml"))).round;
    const round = {
      ...demo,
      config: {
        ...demo.config,
        baseline: { ...demo.config.baseline, cwd: undefined },
        candidate: { ...demo.config.candidate, sourceDir: "/src/engine" },
      },
    };
    const aa = aaRound(round);
    expect(aa.config.baseline.cwd).toBe("/src/engine");
    expect(resolveRoundEngines(aa.config, aa.configPath).candidate.cwd).toBe("/src/engine");
  });
});
