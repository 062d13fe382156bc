import { describe, expect, it } from "vitest";
import { DEFAULT_REPO_CONFIG, parseRepoConfig, permissionReaches } from "../../src/github/repo-config-schema.js";

describe("parseRepoConfig", () => {
  it("uses the documented defaults when the file is missing or empty", () => {
    expect(DEFAULT_REPO_CONFIG).toEqual({
      workflow: "speedgate.yml",
      gate: { minRoundScore: 1, maxUnscored: 0.1, minPrompts: 10, minAgreement: 1, maxUnexplained: 0 },
      trigger: "command",
      rescore: { permission: "write" },
      leaderboard: false,
    });
    expect(parseRepoConfig(null)).toEqual({ ok: true, config: DEFAULT_REPO_CONFIG });
    expect(parseRepoConfig({})).toEqual({ ok: true, config: DEFAULT_REPO_CONFIG });
  });

  it("turns the leaderboard on with leaderboard: true, and names a value that is not a yes or no", () => {
    expect(parseRepoConfig({ leaderboard: true })).toEqual({ ok: true, config: { ...DEFAULT_REPO_CONFIG, leaderboard: true } });
    const refused = parseRepoConfig({ leaderboard: "yes please" });
    expect(refused.ok).toBe(false);
    expect(refused.ok ? [] : refused.problems).toEqual([expect.stringMatching(/^leaderboard: expected true or false/) as string]);
  });

  it("fills what a partial file leaves out", () => {
    const result = parseRepoConfig({ gate: { minRoundScore: 1.05 }, trigger: "auto" });
    expect(result).toEqual({ ok: true, config: { ...DEFAULT_REPO_CONFIG, gate: { minRoundScore: 1.05, maxUnscored: 0.1, minPrompts: 10, minAgreement: 1, maxUnexplained: 0 }, trigger: "auto" } });
  });

  it("takes gate.maxRegression in (0, 1] and leaves it out when the file does", () => {
    const result = parseRepoConfig({ gate: { maxRegression: 0.97 } });
    expect(result.ok && result.config.gate.maxRegression).toBe(0.97);
    expect(DEFAULT_REPO_CONFIG.gate.maxRegression).toBeUndefined();
    for (const wrong of [0, 1.2, "0.9"]) {
      const refused = parseRepoConfig({ gate: { maxRegression: wrong } });
      expect(refused.ok ? [] : refused.problems).toEqual([expect.stringMatching(/^gate\.maxRegression: expected a speedup in \(0, 1\], such as 0\.97/) as string]);
    }
  });

  it("names each wrong field and what it expects", () => {
    const result = parseRepoConfig({ gate: { minRoundScore: 0, maxUnscored: 1, minPrompts: 0 }, trigger: "always", rescore: { permission: "read" }, extra: 1 });
    expect(result.ok).toBe(false);
    const problems = result.ok ? [] : result.problems.join("\n");
    expect(problems).toContain("gate.minRoundScore");
    expect(problems).toContain("gate.maxUnscored: expected a share of prompts in [0, 1), such as 0.1, got 1");
    expect(problems).toContain("gate.minPrompts: expected a whole number of prompts, 1 or more, got 0");
    expect(problems).toContain('trigger');
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
