import { describe, expect, it } from "vitest";
import { selfAgreementOf } from "../../src/config/load-round-calibration.js";

const round = (promptsCompared: number, disagreed: number | undefined, medianAgreement: number | null | undefined) => ({
  roundScore: 1,
  runScores: [1],
  promptsCompared,
  unscored: disagreed ?? 0,
  ...(disagreed === undefined ? {} : { disagreed }),
  ...(medianAgreement === undefined ? {} : { medianAgreement }),
});

describe("selfAgreementOf", () => {
  it("takes the baseline's lowest median agreement and its largest share of cut or parted prompts over the A/A rounds", () => {
    expect(selfAgreementOf([round(20, 0, 1), round(20, 2, 0.9), round(20, 1, 1), round(0, 0, null), round(20, 0, 1)])).toEqual({
      lowestMedianAgreement: 0.9,
      mostDisagreed: 0.1,
    });
    expect(selfAgreementOf([round(20, 0, null), round(20, 0, null)])).toEqual({ lowestMedianAgreement: null, mostDisagreed: 0 });
  });

  it("gives nothing for a file written before the baseline's self-agreement was measured: the rules keep their configured limits", () => {
    expect(selfAgreementOf([round(20, undefined, undefined), round(20, undefined, undefined)])).toBeNull();
  });
});
