import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { exampleCards } from "../../scripts/make-example-cards.js";
import { describeVerdict } from "../../src/scorecard/describe-card.js";
import { parseScorecardJson } from "../../src/scorecard/read-scorecard.js";

describe("examples/cards", () => {
  it("are what scripts/make-example-cards.ts writes with today's card (run it after changing the card)", async () => {
    for (const [name, card] of Object.entries(exampleCards())) {
      const committed = await readFile(new URL(`../../examples/cards/${name}`, import.meta.url), "utf8");
      expect(JSON.parse(committed), name).toEqual(JSON.parse(JSON.stringify(card)));
      expect(parseScorecardJson(committed, name)).toEqual(JSON.parse(JSON.stringify(card)));
    }
  });

  it("show a calibrated round of three runs that passes, and a candidate that ran out of GPU memory", () => {
    const cards = exampleCards();
    expect(describeVerdict(cards["passing-round.json"]!)).toMatchObject({ passed: true });
    expect(cards["passing-round.json"]).toMatchObject({ settings: { runs: 3 }, gate: { use: "noise-floor", calibration: { problems: [] } } });
    expect(describeVerdict(cards["candidate-cuda-oom.json"]!).headline).toContain("CUDA out of memory during CUDA graph capture");
  });
});
