import { describe, expect, it } from "vitest";
import { effectiveRegressionFloor, findRegressedPrompts, judgeRegression } from "../../src/scoring/judge-regression.js";

const SETTINGS = { regressionFloor: 0.8, maxRegressedPrompts: 0.1 };
const FINE = { e2eP90: 0.9, throughput: 1.05 };

describe("judgeRegression: a minority of requests that got slower", () => {
  it("fails more than 10% of the prompts under the floor, naming the slowest first and how much slower", () => {
    const prompts = Array.from({ length: 30 }, (_, index) => ({
      id: `p${index + 1}`,
      status: "scored",
      score: index % 4 === 1 ? 0.36 + index / 100 : 1.3,
    }));
    const regressed = findRegressedPrompts(prompts, 0.8);
    expect(regressed.map((prompt) => prompt.id)).toEqual(["p2", "p6", "p10", "p14", "p18", "p22", "p26", "p30"]);
    expect(judgeRegression({ compared: 30, regressed, ratios: FINE }, SETTINGS)).toEqual([
      "8 of 30 prompts (26.7%) scored below gate.regressionFloor 0.80× (p2 0.37×, p6 0.41×, p10 0.45×, p14 0.49×, p18 0.53×, " +
        "p22 0.57×; 2 more), more than gate.maxRegressedPrompts 10%: the median hides a minority of requests that got slower",
    ]);
  });

  it("leaves up to the share alone, and counts neither unscored prompts (their own rule) nor excluded ones", () => {
    const prompts = [
      { id: "a", status: "scored", score: 0.5 },
      { id: "b", status: "below_tolerance", score: 0 },
      { id: "c", status: "excluded", score: null },
      ...Array.from({ length: 9 }, (_, index) => ({ id: `q${index}`, status: "scored", score: 1.2 })),
    ];
    const regressed = findRegressedPrompts(prompts, 0.8);
    expect(regressed).toEqual([{ id: "a", score: 0.5 }]);
    expect(judgeRegression({ compared: 11, regressed, ratios: FINE }, SETTINGS)).toEqual([]);
  });

  it("fails an E2E p90 above 1/floor or a throughput below the floor, whatever the prompts' median says", () => {
    expect(judgeRegression({ compared: 30, regressed: [], ratios: { e2eP90: 1.6, throughput: 0.82 } }, SETTINGS)).toEqual([
      "E2E p90 at equal length 1.60× the baseline's, above 1.25× (1 / gate.regressionFloor): the slowest requests got slower",
    ]);
    expect(judgeRegression({ compared: 30, regressed: [], ratios: { e2eP90: 1.1, throughput: 0.79 } }, SETTINGS)).toEqual([
      "output throughput 0.79× the baseline's, below gate.regressionFloor 0.80×: the same work took longer",
    ]);
    expect(judgeRegression({ compared: 30, regressed: [], ratios: { e2eP90: null, throughput: null } }, SETTINGS)).toEqual([]);
  });
});

describe("effectiveRegressionFloor: the floor follows a bar under 1", () => {
  it("holds prompts to gate.regressionFloor of a bar the maintainers set under 1, and to gate.regressionFloor at 1 or more", () => {
    expect(effectiveRegressionFloor({ regressionFloor: 0.8, minRoundScore: 1 })).toBe(0.8);
    expect(effectiveRegressionFloor({ regressionFloor: 0.8, minRoundScore: 1.2 })).toBe(0.8);
    expect(effectiveRegressionFloor({ minRoundScore: 0.25 })).toBeCloseTo(0.2, 12);
    // A noisy scenario gated at 0.25×: prompts at 0.6× are within what its bar accepts; one at 0.1× is not, and the reason names the floor.
    const prompts = [0.6, 0.7, 0.1, 1].map((score, index) => ({ id: `u${index + 1}`, status: "scored", score }));
    const settings = { ...SETTINGS, maxRegressedPrompts: 0, minRoundScore: 0.25 };
    const regressed = findRegressedPrompts(prompts, effectiveRegressionFloor(settings));
    expect(regressed).toEqual([{ id: "u3", score: 0.1 }]);
    expect(judgeRegression({ compared: 4, regressed, ratios: { e2eP90: 4.5, throughput: 0.3 } }, settings)).toEqual([
      expect.stringMatching(/^1 of 4 prompts \(25%\) scored below gate\.regressionFloor × gate\.minRoundScore 0\.20× \(u3 0\.10×\)/),
    ]);
  });
});
