import { describe, expect, it } from "vitest";
import { decideScenarioBar } from "../../src/github/decide-scenario-bar.js";

const round = {
  path: ".github/speedgate/round.yaml",
  names: ["first-token", "answers"],
  scenarios: { "first-token": { role: "guard" as const, margin: 0.05 } },
};

describe("decideScenarioBar", () => {
  it("takes the round config's bar when the app's settings name none for the scenario", () => {
    expect(decideScenarioBar("first-token", undefined, round)).toEqual({
      entry: { role: "guard", margin: 0.05 },
      from: "round-config",
      path: round.path,
    });
    // An app entry that sets only a prompt limit leaves the bar to the round config.
    expect(decideScenarioBar("first-token", { "first-token": { minPrompts: 4 } }, round)).toEqual({
      entry: { role: "guard", margin: 0.05, minPrompts: 4 },
      from: "round-config",
      path: round.path,
    });
  });

  it("lets the app's gate.scenarios override the round config, and gives the app's gate to a scenario neither names", () => {
    expect(decideScenarioBar("first-token", { "first-token": { role: "target" } }, round)).toEqual({
      entry: { role: "target", margin: 0.05 },
      from: "app-settings",
      path: null,
    });
    expect(decideScenarioBar("answers", undefined, round)).toEqual({ entry: {}, from: "app-settings", path: null });
    expect(decideScenarioBar("first-token", undefined, undefined)).toEqual({ entry: {}, from: "app-settings", path: null });
  });

  it("finds no bar a scenario's name inherits from every object", () => {
    expect(decideScenarioBar("constructor", {}, { ...round, scenarios: {} })).toEqual({ entry: {}, from: "app-settings", path: null });
  });
});
