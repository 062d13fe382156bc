import { describe, expect, it } from "vitest";
import { judgeAgreement } from "../../src/scoring/judge-agreement.js";
import { isExplainedRun } from "../../src/scoring/explain-unscored-run.js";

const RULES = { agreementTokens: 16, minPromptAgreement: 0.5 };

describe("judgeAgreement", () => {
  it("holds the first agreementTokens and more than minPromptAgreement of k, and nothing for answers that do not part", () => {
    expect(judgeAgreement(10, 100, RULES)).toBe("answers part at token 11 of 100, within the first 16 that must match");
    expect(judgeAgreement(17, 100, RULES)).toBe(
      "answers part at token 18 of 100: they agree on 17% of it, no more than bench.minPromptAgreement 50%",
    );
    expect(judgeAgreement(50, 100, RULES)).toMatch(/agree on 50% of it/);
    expect(judgeAgreement(51, 100, RULES)).toBeNull();
    expect(judgeAgreement(100, 100, RULES)).toBeNull();
    // An answer shorter than agreementTokens must match over all of it.
    expect(judgeAgreement(7, 8, RULES)).toBe("answers part at token 8 of 8, within the first 16 that must match");
  });

  it("turns each rule off with 0", () => {
    expect(judgeAgreement(10, 100, { agreementTokens: 0, minPromptAgreement: 0.5 })).toMatch(/agree on 10% of it/);
    expect(judgeAgreement(17, 100, { agreementTokens: 16, minPromptAgreement: 0 })).toBeNull();
  });
});

describe("isExplainedRun", () => {
  const rules = { ...RULES, tolerance: 0.9 };

  it("explains a cut the baseline itself made in another run, down to its own shortest answer", () => {
    expect(isExplainedRun({ status: "below_tolerance", candidateTokens: 79 }, [94, 79], null, rules)).toBe(true);
    expect(isExplainedRun({ status: "below_tolerance", candidateTokens: 60 }, [94, 79], null, rules)).toBe(false);
    expect(isExplainedRun({ status: "below_tolerance", candidateTokens: 79 }, [94, 94], null, rules)).toBe(false);
    expect(isExplainedRun({ status: "below_tolerance", candidateTokens: 79 }, [94], null, rules)).toBe(false);
  });

  it("explains a parting when the baseline's own answers would be diverged under the same rules", () => {
    expect(isExplainedRun({ status: "diverged" }, [100, 100], { agreedTokens: 40, comparedTokens: 100 }, rules)).toBe(true);
    expect(isExplainedRun({ status: "diverged" }, [100, 100], { agreedTokens: 80, comparedTokens: 100 }, rules)).toBe(false);
    expect(isExplainedRun({ status: "diverged" }, [100], null, rules)).toBe(false);
    expect(isExplainedRun({ status: "implausible" }, [100, 60], { agreedTokens: 0, comparedTokens: 60 }, rules)).toBe(false);
  });
});
