import { describe, expect, it } from "vitest";
import { readRoundConfigBars } from "../../src/github/read-round-config-bars.js";

const PATH = ".github/speedgate/round.yaml";

describe("readRoundConfigBars", () => {
  it("states each scenario's bar as the round merges it: its own gate over the round's, bar fields only", () => {
    const text = [
      "engine: llama.cpp",
      "gate: { minRoundScore: 1.02, maxUnscored: 0.2, calibration: ./cal.json }",
      "scenarios:",
      "  - name: answers",
      "  - name: first-token",
      "    maxTokens: 1",
      "    gate: { role: guard, margin: 0.03, minPrompts: 4, answers: quality }",
      "  - name: chat",
      "    gate: { minRoundScore: 1.1, use: interval-low }",
    ].join("\n");
    expect(readRoundConfigBars(text, PATH)).toEqual({
      ok: true,
      bars: {
        path: PATH,
        names: ["answers", "first-token", "chat"],
        scenarios: {
          answers: { minRoundScore: 1.02 },
          "first-token": { minRoundScore: 1.02, role: "guard", margin: 0.03 },
          chat: { minRoundScore: 1.1, use: "interval-low" },
        },
      },
    });
  });

  it("leaves out a scenario whose bar the file does not write, and has no scenarios for a round without them", () => {
    expect(readRoundConfigBars("scenarios: [{ name: a }, { name: b, gate: { role: guard } }]", PATH)).toEqual({
      ok: true,
      bars: { path: PATH, names: ["a", "b"], scenarios: { b: { role: "guard" } } },
    });
    expect(readRoundConfigBars("engine: sim\n", PATH)).toEqual({ ok: true, bars: { path: PATH, names: [], scenarios: {} } });
    expect(readRoundConfigBars("", PATH)).toEqual({ ok: true, bars: { path: PATH, names: [], scenarios: {} } });
  });

  it("says what is wrong, field by field, with a file the app cannot take a bar from", () => {
    const broken = readRoundConfigBars("scenarios:\n  - name: a\n    gate: { role: sentinel, margin: 2 }\n", PATH);
    expect(broken.ok ? [] : broken.problems).toEqual([
      expect.stringMatching(/^scenarios\[0\]\.gate\.role: expected one of "target", "guard"/) as string,
      expect.stringMatching(/^scenarios\[0\]\.gate\.margin: expected a share of speed in \(0, 1\)/) as string,
    ]);
    const yaml = readRoundConfigBars("gate: { minRoundScore: 1\n", PATH);
    expect(yaml.ok ? [] : yaml.problems).toEqual([expect.stringMatching(/^expected valid YAML: /) as string]);
    const named = readRoundConfigBars("scenarios: [{ gate: { role: guard } }]", PATH);
    expect(named.ok ? [] : named.problems).toEqual([
      expect.stringMatching(/^scenarios\[0\]\.name: expected the scenario's name/) as string,
    ]);
  });
});
