import { describe, expect, it } from "vitest";
import { calibrationFileSchema } from "../../src/calibration/calibration-schema.js";
import { makeCalibrationFile, makeCalibrationStudy as study } from "../support/make-calibration-file.js";

const SCORES = [1.01, 0.99, 1.02, 0.98, 1.0];
const file = () => makeCalibrationFile(SCORES);

/** The file as written to disk and read back. */
const roundTrip = (value: unknown) => calibrationFileSchema.safeParse(JSON.parse(JSON.stringify(value)));

describe("calibrationFileSchema", () => {
  it("reads a file without scenarios exactly as it was written, with no scenarios field added", () => {
    const parsed = roundTrip(file());
    expect(parsed.success).toBe(true);
    expect(parsed.data).toEqual(file());
    expect(parsed.data).not.toHaveProperty("scenarios");
  });

  it("reads a study per scenario, in order, each with its own prompts, settings and rounds", () => {
    const decode = { name: "decode-c1", promptsHash: "1".repeat(64), ...study(SCORES, 12) };
    const chat = { name: "chat rate4", promptsHash: "2".repeat(64), ...study([1.1, 0.9, 1.05, 0.95, 1.0], 5) };
    const written = { ...file(), scenarios: [decode, chat] };
    const parsed = roundTrip(written);
    expect(parsed.success).toBe(true);
    expect(parsed.data).toEqual(written);
    expect(parsed.data?.scenarios?.map((scenario) => [scenario.name, scenario.settings.prompts, scenario.rounds.length])).toEqual([
      ["decode-c1", 12, 5],
      ["chat rate4", 5, 5],
    ]);
  });

  it("refuses a scenario study the gate could not use: too few rounds, a name no round config allows, a name twice, more than 32", () => {
    const entry = (name: string, scores = SCORES) => ({ name, promptsHash: "1".repeat(64), ...study(scores, 12) });
    const refused = (scenarios: unknown[]) => roundTrip({ ...file(), scenarios }).error?.issues.map((issue) => issue.path.join("."));
    const short = entry("decode");
    expect(refused([{ ...short, rounds: short.rounds.slice(0, 4) }])).toEqual(["scenarios.0.rounds"]);
    expect(refused([entry("-decode")])).toEqual(["scenarios.0.name"]);
    expect(refused([entry("decode"), entry("decode")])).toEqual(["scenarios"]);
    expect(refused(Array.from({ length: 33 }, (_, index) => entry(`s${index}`)))).toEqual(["scenarios"]);
    expect(refused([])).toEqual(["scenarios"]);
  });
});
