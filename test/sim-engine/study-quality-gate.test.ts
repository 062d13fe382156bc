import { describe, expect, it } from "vitest";
import { dropShareFor, studyQualityGate } from "../../src/sim-engine/study-quality-gate.js";

const base = { questions: 200, runs: 4, change: {}, maxDrop: 0.02 };

describe("studyQualityGate", () => {
  it("never fails an unchanged engine whose answers never vary, and always catches 5 points off such an engine", () => {
    const steady = { accuracy: 0.8, unsteady: 0 };
    expect(studyQualityGate({ ...base, engine: steady }, 50).failRate).toBe(0);
    const drop = studyQualityGate({ ...base, engine: steady, change: { qualityDrop: dropShareFor(0.05, steady) } }, 50);
    expect(drop.failRate).toBe(1);
    expect(drop.meanTrueDrop).toBeCloseTo(0.05, 2);
  });

  it("holds a numerics change that keeps accuracy, however many answers it changes", () => {
    const engine = { accuracy: 0.8, unsteady: 0 };
    expect(studyQualityGate({ ...base, engine, change: { numericsChange: 0.2 } }, 50).failRate).toBe(0);
  });

  it("is seeded: the same rounds give the same rates", () => {
    const setup = { ...base, engine: { accuracy: 0.8, unsteady: 0.1 }, change: { qualityDrop: 0.05 } };
    expect(studyQualityGate(setup, 40)).toEqual(studyQualityGate(setup, 40));
  });
});
