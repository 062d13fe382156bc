import { describe, expect, it } from "vitest";
import { renderText } from "../../../src/scorecard/render/render-text.js";
import { CRASH_WITH_LINKS, EXCERPT_WITH_LINKS, withEngineText } from "../../../harness/crash-with-links.js";
import { type PromptPlan, makeCard, seedOomFailure, testConfig } from "../../../harness/make-card.js";
import { IDLE_GPU, LEFTOVER_GPU } from "../../support/make-gpu-snapshot.js";
import { assembleScenarioCard } from "../../../src/scorecard/assemble-scenario-card.js";
import { FOUR_RUNS_TIME, readExampleCard, slowerCard, underLoad } from "../../support/make-scenario-card.js";

const twelve: PromptPlan[] = Array.from({ length: 12 }, () => ({ speedup: 1.3 }));

/** The line numbers of the first lines starting with each prefix, in the order given. */
function positions(text: string, prefixes: string[]): number[] {
  const lines = text.split("\n");
  return prefixes.map((prefix) => lines.findIndex((line) => line.startsWith(prefix)));
}

describe("renderText: the terminal card in the Markdown card's order", () => {
  it("puts the verdict, the score, the prompts, the speed line and the gate first, and the details after", () => {
    // A cut the baseline does not show is allowed here (gate.maxUnexplained), so the card passes with it.
    const lenient = { ...testConfig, gate: { ...testConfig.gate, maxUnexplained: 0.1 } };
    const text = renderText(makeCard([...twelve.slice(0, 11), { candidateTokens: 10 }], { config: lenient }));
    const [headline, score, prompts, speed, gate, details, table] = positions(text, [
      "✅ Round score 1.30×",
      "Round score  1.30× median end-to-end speedup at equal length, 95% interval",
      "Prompts      11 of 12 scored; 1 below tolerance (answered too little)",
      "Speed        First token: ",
      "Gate         passes: ",
      "How the score was measured:",
      "Where the speed came from",
    ]);
    expect([headline, score, prompts, speed, gate, details, table]).toEqual([0, 2, 3, 4, 5, 7, expect.any(Number)]);
    expect(table).toBeGreaterThan(details as number);
    expect(text).not.toContain("median_e2e_speedup");
    expect(text).not.toContain("scored 0.0 without measuring");
  });

  it("leads a card with no score with its cause and who must act, then the details", () => {
    const text = renderText(makeCard(twelve, { failure: seedOomFailure(), gpuSnapshots: { baseline: IDLE_GPU, candidate: LEFTOVER_GPU } }));
    const [headline, cause, maintainers, hint, details] = positions(text, [
      "⚠️ No verdict: the runner's GPU was busy, not the patch",
      "candidate engine died before becoming healthy (CUDA out of memory during CUDA graph capture)",
      "For the runner's maintainers: before the candidate started",
      "  if it fails on a free GPU",
      "How the score was measured:",
    ]);
    expect(headline).toBe(0);
    expect(cause).toBe(2);
    expect(maintainers).toBe(3);
    expect(hint).toBeGreaterThan(3);
    expect(details).toBeGreaterThan(hint as number);
    expect(text).toContain("  Gate              no verdict: ");
    expect(text).toContain(
      "All 12 prompts: zeroed, 0.00×: candidate engine failed at startup (CUDA out of memory during CUDA graph capture)",
    );
  });

  it(
    "leads a card with scenarios with the verdict over all of them and their table, then each one's score table, then where the time " +
      "went",
    async () => {
      const passing = await readExampleCard("passing-round");
      const card = assembleScenarioCard(
        [
          { name: "decode-c1", card: underLoad(passing, { concurrency: 1 }) },
          { name: "chat-rate16", card: underLoad(slowerCard(), { requestIntervalMs: 62.5, arrival: "poisson" }) },
        ],
        0.97,
        { timeSpent: FOUR_RUNS_TIME },
      );
      const text = renderText(card);
      expect(text.split("\n").slice(0, 5)).toEqual([
        "❌ 1 of 2 scenarios passed — decode-c1 1.26× faster; chat-rate16 regressed 0.91× [0.90×, 0.92×]",
        "",
        "scenario     role            load                                    prompts                score  interval        verdict",
        "decode-c1    target ≥ 1.00×  concurrency 1                           12 from a prompt file  1.26×  [1.23×, 1.29×]  ✅ passed",
        "chat-rate16  target ≥ 1.00×  one every 62.5 ms on average (Poisson)  12 from a prompt file  0.91×  [0.90×, 0.92×]  " +
          "❌ interval low 0.90× < 1.00×",
      ]);
      const [decode, chat, round, time] = positions(text, [
        "Scenario decode-c1: 1.26× [1.23×, 1.29×] ✅",
        "Scenario chat-rate16: 0.91× [0.90×, 0.92×] ❌",
        "How the round was measured:",
        "Where the time went:",
      ]);
      expect(decode).toBeGreaterThan(4);
      expect(chat).toBeGreaterThan(decode as number);
      expect(round).toBeGreaterThan(chat as number);
      expect(time).toBeGreaterThan(round as number);
      const chatLines = text.split("\n").slice(chat, round);
      expect(chatLines).toContain("  Gate         does not pass: interval low 0.90× < 1.00×");
      expect(chatLines).toContain(
        "  Settings: request interval 62.5 ms (Poisson), runs 1, thinking off, context limit 32768, max tokens 512, tolerance 90%",
      );
      expect(text).toContain("  Gate: does not pass: chat-rate16: interval low 0.90× < 1.00×");
      // What the scenarios share is said once.
      expect(text.split("GPU before the baseline started").length - 1).toBe(1);
    },
  );

  it("leaves no URL or e-mail address whole that a terminal or a job log would link, and reads as the engine wrote it (issue #40)", () => {
    const card = withEngineText(makeCard(twelve, { failure: seedOomFailure() }), CRASH_WITH_LINKS, EXCERPT_WITH_LINKS);
    const text = renderText(card);
    expect(text).not.toMatch(/\b[a-z][a-z0-9+.-]*:\/\/\S|\bwww\.\S|[\w.+-]+@[\p{L}\p{N}-]+\.\S/iu);
    const error = text.split("\n").find((line) => line.startsWith("  error ")) ?? "";
    expect(error.replaceAll("\u200b", "")).toMatch(/^ {2}error {2,}RuntimeError: /);
    expect(error.replaceAll("\u200b", "").endsWith(CRASH_WITH_LINKS)).toBe(true);
  });
});
