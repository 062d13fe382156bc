import { describe, expect, it } from "vitest";
import { regateScorecard } from "../../../src/github/regate-scorecard.js";
import { renderMarkdown } from "../../../src/scorecard/render/render-markdown.js";
import { renderScenarioBars, renderScenarioBarsText } from "../../../src/scorecard/render/render-scenario-bars.js";
import { renderText } from "../../../src/scorecard/render/render-text.js";
import { makeScenarioRound } from "../../support/make-scenario-round.js";

const repoGate = { minRoundScore: 1, maxUnscored: 0.1, minPrompts: 10 };
const path = ".github/speedgate/round.yaml";

describe("renderScenarioBars: which settings decided each scenario's bar", () => {
  const card = makeScenarioRound([
    { name: "decode-c1", speedup: 1.2 },
    { name: "chat-rate16", speedup: 0.97, role: "guard" },
  ]);

  it("says a round's own card has its round config's bars, and says nothing for a round without scenarios", () => {
    expect(renderScenarioBars(card)).toBe(
      "Bars from the round config. The app holds each scenario to the default branch's copy of it, under its own `gate.scenarios`.",
    );
    const { scenarios: _none, ...single } = card;
    expect(renderScenarioBars(single)).toBe("");
  });

  it("names, on the app's card and its check, the settings that decided each scenario", () => {
    const roundConfig = { path, names: ["decode-c1", "chat-rate16"], scenarios: { "chat-rate16": { role: "guard" as const } } };
    const regated = regateScorecard(card, { ...repoGate, roundConfig }, null);
    expect(renderScenarioBars(regated)).toBe(
      `Bars from the round config on the default branch (\`${path}\`): **chat-rate16**; from the app's settings: **decode-c1**.`,
    );
    expect(renderMarkdown(regated)).toContain(renderScenarioBars(regated));
  });

  it("warns, by name, where the round's own card claimed another bar than the one that decided", () => {
    const forged = makeScenarioRound([
      { name: "decode-c1", speedup: 1.2 },
      { name: "chat-rate16", speedup: 0.6, role: "guard", margin: 0.5 },
    ]);
    const roundConfig = { path, names: ["decode-c1", "chat-rate16"], scenarios: { "chat-rate16": { minRoundScore: 0.98 } } };
    const regated = regateScorecard(forged, { ...repoGate, roundConfig }, null);
    expect(renderScenarioBars(regated).split("\n\n")[1]).toBe(
      "> [!WARNING]\n> **Another bar than the round's card**: the round's own card made **chat-rate16** a guard (fails only when " +
        "surely more than 50% slower); the default branch's round config makes it a target at 0.98×, which decides. A pull " +
        "request that edits its own round config changes what runs, never the bar it is held to.",
    );
  });

  it("says the same in the terminal card, without Markdown, and keeps a forged path's control characters out of the terminal", () => {
    const forged = makeScenarioRound([
      { name: "decode-c1", speedup: 1.2 },
      { name: "chat-rate16", speedup: 0.6, role: "guard", margin: 0.5 },
    ]);
    const roundConfig = {
      path: ".github/speedgate/round.yaml\u001b[2J",
      names: ["decode-c1", "chat-rate16"],
      scenarios: { "chat-rate16": { minRoundScore: 0.98 } },
    };
    const regated = regateScorecard(forged, { ...repoGate, roundConfig }, null);
    const text = renderScenarioBarsText(regated);
    expect(text).toBe(
      "Bars from the round config on the default branch (.github/speedgate/round.yaml): chat-rate16; from the app's settings: " +
        "decode-c1.\n\n⚠ Another bar than the round's card: the round's own card made chat-rate16 a guard (fails only when surely " +
        "more than 50% slower); the default branch's round config makes it a target at 0.98×, which decides. A pull request that " +
        "edits its own round config changes what runs, never the bar it is held to.",
    );
    expect(renderText(regated)).toContain(text);
    expect(renderScenarioBarsText(card)).toBe(
      "Bars from the round config. The app holds each scenario to the default branch's copy of it, under its own gate.scenarios.",
    );
  });
});
