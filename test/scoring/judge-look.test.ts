import { describe, expect, it } from "vitest";
import { type LookFacts, judgeLook } from "../../src/scoring/judge-look.js";

const facts = (overrides: Partial<LookFacts> & { decision?: "pass" | "fail" | "undecided"; runs?: number }): LookFacts => ({
  failed: false,
  unfixable: false,
  integrityReasons: 0,
  baselineVaries: false,
  ...overrides,
  sequential: { decision: overrides.decision ?? "undecided", runs: overrides.runs ?? 2, budget: { min: 2, max: 8 } },
});

describe("judgeLook", () => {
  it("stops a round at once for what more runs do not fix", () => {
    expect(judgeLook(facts({ failed: true, decision: "pass" }))).toBe("failure");
    expect(judgeLook(facts({ unfixable: true, baselineVaries: true }))).toBe("integrity");
    expect(judgeLook(facts({ integrityReasons: 1, decision: "pass" }))).toBe("integrity");
  });

  it("goes on past cuts and partings while the baseline's own answers vary: a later run may show them as the engine's", () => {
    expect(judgeLook(facts({ integrityReasons: 1, baselineVaries: true, decision: "pass" }))).toBeNull();
    expect(judgeLook(facts({ integrityReasons: 1, baselineVaries: true, runs: 8 }))).toBe("budget");
  });

  it("reads a slower minority as speed, not integrity: it stops no round but keeps a pass from being decided", () => {
    // A 0.6x candidate's regressed prompts once stopped its round as 'integrity' at the first look, before the test ruled it out.
    expect(judgeLook(facts({ speedReasons: 2 }))).toBeNull();
    expect(judgeLook(facts({ speedReasons: 2, decision: "fail" }))).toBe("ruled-out");
    expect(judgeLook(facts({ speedReasons: 1, decision: "pass" }))).toBeNull();
    expect(judgeLook(facts({ speedReasons: 1, decision: "pass", runs: 8 }))).toBe("budget");
  });

  it("stops when the test decides, and at the budget", () => {
    expect(judgeLook(facts({ decision: "pass" }))).toBe("decided");
    expect(judgeLook(facts({ decision: "fail" }))).toBe("ruled-out");
    expect(judgeLook(facts({ runs: 8 }))).toBe("budget");
    expect(judgeLook(facts({ runs: 4 }))).toBeNull();
  });
});
