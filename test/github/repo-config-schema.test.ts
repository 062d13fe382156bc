import { describe, expect, it } from "vitest";
import { DEFAULT_REPO_CONFIG, parseRepoConfig, permissionReaches } from "../../src/github/repo-config-schema.js";

describe("parseRepoConfig", () => {
  it("uses the documented defaults when the file is missing or empty", () => {
    expect(DEFAULT_REPO_CONFIG).toEqual({
      workflow: "speedgate.yml",
      gate: {
        minRoundScore: 1,
        maxUnscored: 0.1,
        minPrompts: 10,
        minAgreement: 1,
        maxUnexplained: 0,
        regressionFloor: 0.8,
        maxRegressedPrompts: 0.1,
      },
      roundConfig: ".github/speedgate/round.yaml",
      trigger: "command",
      rescore: { permission: "write" },
      leaderboard: false,
    });
    expect(parseRepoConfig(null)).toEqual({ ok: true, config: DEFAULT_REPO_CONFIG });
    expect(parseRepoConfig({})).toEqual({ ok: true, config: DEFAULT_REPO_CONFIG });
  });

  it("names the round config whose scenario bars decide (null: none), and refuses a path out of the repository", () => {
    expect(parseRepoConfig({ roundConfig: "ci/round.yml" })).toEqual({
      ok: true,
      config: { ...DEFAULT_REPO_CONFIG, roundConfig: "ci/round.yml" },
    });
    expect(parseRepoConfig({ roundConfig: null })).toEqual({ ok: true, config: { ...DEFAULT_REPO_CONFIG, roundConfig: null } });
    for (const path of ["../other/round.yaml", "/etc/round.yaml", "a/../../round.yaml", "round.json"]) {
      const refused = parseRepoConfig({ roundConfig: path });
      expect(refused.ok ? [] : refused.problems, path).toEqual([
        expect.stringMatching(/^roundConfig: expected the round config's path/) as string,
      ]);
    }
  });

  it("turns the leaderboard on with leaderboard: true, and names a value that is not a yes or no", () => {
    expect(parseRepoConfig({ leaderboard: true })).toEqual({ ok: true, config: { ...DEFAULT_REPO_CONFIG, leaderboard: true } });
    const refused = parseRepoConfig({ leaderboard: "yes please" });
    expect(refused.ok).toBe(false);
    expect(refused.ok ? [] : refused.problems).toEqual([expect.stringMatching(/^leaderboard: expected true or false/) as string]);
  });

  it("reads watch: with its defaults, leaves it out when the file does, and names a wrong field", () => {
    expect(DEFAULT_REPO_CONFIG.watch).toBeUndefined();
    const result = parseRepoConfig({ watch: { maxDrift: 0.95 } });
    expect(result.ok && result.config.watch).toEqual({
      workflow: "speedgate-watch.yml",
      maxDrift: 0.95,
      maxRepeats: 2,
      explainShare: 0.5,
      parallelSteps: 1,
      everyMerge: false,
      changePoint: { enabled: true, maxPValue: 0.01, minSegment: 3, minChange: 0.02, permutations: 199 },
    });
    const refused = parseRepoConfig({ watch: { maxDrift: 1.2, workflow: "../evil.yml" } });
    expect(refused.ok).toBe(false);
    const problems = refused.ok ? [] : refused.problems.join("\n");
    expect(problems).toContain("watch.maxDrift");
    expect(problems).toContain("expected a speedup in (0, 1], such as 0.97");
    expect(problems).toContain("watch.workflow");
  });

  it("fills what a partial file leaves out", () => {
    const result = parseRepoConfig({ gate: { minRoundScore: 1.05 }, trigger: "auto" });
    expect(result).toEqual({
      ok: true,
      config: {
        ...DEFAULT_REPO_CONFIG,
        gate: { ...DEFAULT_REPO_CONFIG.gate, minRoundScore: 1.05 },
        trigger: "auto",
      },
    });
  });

  it("takes gate.maxRegression in (0, 1] and leaves it out when the file does", () => {
    const result = parseRepoConfig({ gate: { maxRegression: 0.97 } });
    expect(result.ok && result.config.gate.maxRegression).toBe(0.97);
    expect(DEFAULT_REPO_CONFIG.gate.maxRegression).toBeUndefined();
    for (const wrong of [0, 1.2, "0.9"]) {
      const refused = parseRepoConfig({ gate: { maxRegression: wrong } });
      expect(refused.ok ? [] : refused.problems).toEqual([
        expect.stringMatching(/^gate\.maxRegression: expected a speedup in \(0, 1\], such as 0\.97/) as string,
      ]);
    }
  });

  it("takes a bar per scenario name under gate.scenarios, filling nothing an entry leaves out", () => {
    const scenarios = {
      "decode-c1": { minRoundScore: 1 },
      "chat-rate16": { minRoundScore: 0.98, use: "round-score", maxUnscored: 0.2 },
      "prefill c32+fp8": {},
    };
    const result = parseRepoConfig({ gate: { minRoundScore: 1.0, maxRegression: 0.97, scenarios } });
    expect(result.ok && result.config.gate).toEqual({ ...DEFAULT_REPO_CONFIG.gate, maxRegression: 0.97, scenarios });
    expect(DEFAULT_REPO_CONFIG.gate.scenarios).toBeUndefined();
  });

  it("names a bad scenario name, a misspelt or wrong scenario field, and an empty or oversized list", () => {
    const problems = (value: unknown): string[] => {
      const result = parseRepoConfig({ gate: { scenarios: value } });
      return result.ok ? [] : result.problems;
    };
    expect(problems({ "-decode": { minRoundScore: 1 } })).toEqual([
      expect.stringMatching(
        /^gate\.scenarios\.-decode: not a scenario name: a key must be spelled as a round config's scenarios\[\]\.name/,
      ) as string,
    ]);
    expect(problems({ "decode-c1": { minRoundScor: 1 } })).toEqual([
      "gate.scenarios.decode-c1.minRoundScor: unknown field, did you mean `minRoundScore`?",
    ]);
    expect(problems({ "decode-c1": { calibration: "noise.json" } })).toEqual([
      expect.stringMatching(/^gate\.scenarios\.decode-c1\.calibration: unknown field, expected one of minRoundScore, use, /) as string,
    ]);
    expect(problems({ "decode-c1": { minRoundScore: 0, maxUnscored: 1 } })).toEqual([
      "gate.scenarios.decode-c1.minRoundScore: expected a speedup greater than 0, such as 1.0, got 0",
      "gate.scenarios.decode-c1.maxUnscored: expected a share of prompts in [0, 1), such as 0.1, got 1",
    ]);
    expect(problems({ "decode-c1": 0.98 })).toEqual([
      "gate.scenarios.decode-c1: expected an object with some of role, minRoundScore, margin, use, maxUnscored, minPrompts, " +
        "minAgreement, maxUnexplained, regressionFloor, maxRegressedPrompts and answers, got 0.98",
    ]);
    expect(problems(["decode-c1"])).toEqual([
      expect.stringMatching(/^gate\.scenarios: expected a mapping of scenario names to bars/) as string,
    ]);
    expect(problems({})).toEqual([expect.stringMatching(/^gate\.scenarios: expected at least one scenario/) as string]);
    const many = Object.fromEntries(Array.from({ length: 33 }, (_, index) => [`s${index}`, {}]));
    expect(problems(many)).toEqual([expect.stringMatching(/^gate\.scenarios: expected at most 32 scenarios/) as string]);
    expect(problems(Object.fromEntries(Object.entries(many).slice(0, 32)))).toEqual([]);
  });

  it("names each wrong field and what it expects", () => {
    const result = parseRepoConfig({
      gate: { minRoundScore: 0, maxUnscored: 1, minPrompts: 0 },
      trigger: "always",
      rescore: { permission: "read" },
      extra: 1,
    });
    expect(result.ok).toBe(false);
    const problems = result.ok ? [] : result.problems.join("\n");
    expect(problems).toContain("gate.minRoundScore");
    expect(problems).toContain("gate.maxUnscored: expected a share of prompts in [0, 1), such as 0.1, got 1");
    expect(problems).toContain("gate.minPrompts: expected a whole number of prompts, 1 or more, got 0");
    expect(problems).toContain("trigger");
    expect(problems).toContain('"command", "auto"');
    expect(problems).toContain("rescore.permission");
    expect(problems).toContain("extra");
  });
});

describe("permissionReaches", () => {
  it("orders roles read < triage < write < maintain < admin, and refuses unknown ones", () => {
    expect(permissionReaches("write", "write")).toBe(true);
    expect(permissionReaches("maintain", "write")).toBe(true);
    expect(permissionReaches("admin", "maintain")).toBe(true);
    expect(permissionReaches("triage", "write")).toBe(false);
    expect(permissionReaches("read", "triage")).toBe(false);
    expect(permissionReaches("none", "triage")).toBe(false);
  });
});
