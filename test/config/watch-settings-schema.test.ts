import { describe, expect, it } from "vitest";
import { parseRoundConfig } from "../../src/config/load-round-config.js";
import { fingerprintRound } from "../../src/config/fingerprint-round.js";
import { DEFAULT_WATCH, appWatchSchema } from "../../src/config/watch-settings-schema.js";
import { ConfigError } from "../../src/vocabulary/config-error.js";

const base = {
  engine: "sglang",
  runtime: "process",
  port: 30000,
  baseline: { command: ["serve"] },
  bench: { prompts: "prompts.jsonl", maxTokens: 256, requestIntervalMs: 250, contextLimit: 4096, tolerance: 0.9, runs: 4 },
  gate: { minRoundScore: 1 },
};

function messageFor(input: unknown): string {
  try {
    parseRoundConfig(input, "round.yml");
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error("expected the config to be refused");
}

describe("the round config's watch section", () => {
  it("fills the defaults: a 0.97 bar, 7 days back, two repeats, half the drift", () => {
    expect(DEFAULT_WATCH).toEqual({
      maxDrift: 0.97,
      since: { days: 7 },
      maxRepeats: 2,
      explainShare: 0.5,
      changePoint: { enabled: true, maxPValue: 0.01, minSegment: 3, minChange: 0.02, permutations: 199 },
    });
    expect(parseRoundConfig({ ...base, watch: {} }).watch).toEqual(DEFAULT_WATCH);
    expect(parseRoundConfig({ ...base, watch: { since: { tag: "v0.5.0" } } }).watch?.since).toEqual({ tag: "v0.5.0" });
  });

  it("is left out of the fingerprint: a calibration measured without it still fits", () => {
    const without = fingerprintRound(parseRoundConfig(base), "/round", []);
    const withWatch = fingerprintRound(parseRoundConfig({ ...base, watch: { maxDrift: 0.95, since: { days: 3 } } }), "/round", []);
    expect(withWatch).toEqual(without);
  });

  it("names the field and what it expects when a value is wrong", () => {
    expect(messageFor({ ...base, watch: { maxDrift: 1.2 } })).toMatch(/watch\.maxDrift: expected a speedup in \(0, 1\]/);
    expect(messageFor({ ...base, watch: { since: { weeks: 2 } } })).toMatch(/watch\.since: expected where the watch starts/);
    expect(messageFor({ ...base, watch: { maxRepeats: 9 } })).toMatch(/watch\.maxRepeats: expected a whole number of repeats/);
    expect(messageFor({ ...base, watch: { explainShare: 0 } })).toMatch(/watch\.explainShare: expected a share of the drift/);
    expect(messageFor({ ...base, watch: { everyMerge: true } })).toMatch(/watch/);
  });

  it("the app's watch settings add the workflow, parallel steps, every merge and the change-point test", () => {
    expect(appWatchSchema.parse({})).toEqual({
      workflow: "speedgate-watch.yml",
      maxDrift: 0.97,
      maxRepeats: 2,
      explainShare: 0.5,
      parallelSteps: 1,
      everyMerge: false,
      changePoint: { enabled: true, maxPValue: 0.01, minSegment: 3, minChange: 0.02, permutations: 199 },
    });
    expect(appWatchSchema.safeParse({ workflow: "../x.yml" }).success).toBe(false);
  });
});
