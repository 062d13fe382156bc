import { describe, expect, it } from "vitest";
import {
  type CalibrationFacts,
  type CalibrationSource,
  describeMissingScenario,
  fitCalibration,
} from "../../src/calibration/fit-calibration.js";
import { makeCalibrationStudy } from "../support/make-calibration-file.js";

const study = makeCalibrationStudy([1.01, 0.99, 1.02, 0.98, 1.0], 12);
const source: CalibrationSource = {
  measuredAt: "2026-12-04T12:00:00.000Z",
  engine: "llama.cpp",
  runner: "cpu-runner",
  gpu: null,
  baselineImage: null,
  baselineImageId: null,
  promptsHash: "1".repeat(64),
  settings: study.settings,
  scores: study.rounds.map((round) => round.roundScore),
};
/** A scenario's card with other prompts and a shorter answer limit than the study's. */
const facts: CalibrationFacts = { ...source, promptsHash: "2".repeat(64), settings: { ...study.settings, maxTokens: 12 } };

describe("fitCalibration on a scenario's card", () => {
  it("keeps the gate of a scenario the file has no study of closed with that problem alone, not the other study's differences", () => {
    const fitted = fitCalibration({ ...source, scenario: { name: "chat-c1", studied: false } }, facts);
    expect(fitted.problems).toEqual([describeMissingScenario("chat-c1")]);
    // What the whole file was measured on still counts: another GPU is another noise for every scenario.
    const otherGpu = fitCalibration(
      { ...source, scenario: { name: "chat-c1", studied: false } },
      { ...facts, gpu: "NVIDIA H200" },
    ).problems;
    expect(otherGpu).toHaveLength(2);
    expect(otherGpu[0]).toBe(describeMissingScenario("chat-c1"));
    expect(otherGpu[1]).toMatch(/^it was measured on GPU .*, this round ran on "?NVIDIA H200"?$/);
  });

  it("compares a scenario's own study with its card, as a round without scenarios is compared", () => {
    const problems = ["it was measured on another prompt set", `bench.maxTokens is 12, the calibration used ${study.settings.maxTokens}`];
    expect(fitCalibration({ ...source, scenario: { name: "chat-c1", studied: true } }, facts).problems).toEqual(problems);
    // A card from before scenarios had studies of their own carries no mark, and is fitted as it always was.
    expect(fitCalibration(source, facts).problems).toEqual(problems);
  });
});
