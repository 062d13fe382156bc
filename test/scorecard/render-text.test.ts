import { describe, expect, it } from "vitest";
import { renderText } from "../../src/scorecard/render-text.js";
import { type PromptPlan, makeCard, seedOomFailure, testConfig } from "../support/make-card.js";
import { IDLE_GPU, LEFTOVER_GPU } from "../support/make-gpu-snapshot.js";

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
      "For the maintainers: before the candidate started",
      "  if it fails on a free GPU",
      "How the score was measured:",
    ]);
    expect(headline).toBe(0);
    expect(cause).toBe(2);
    expect(maintainers).toBe(3);
    expect(hint).toBeGreaterThan(3);
    expect(details).toBeGreaterThan(hint as number);
    expect(text).toContain("  Gate              no verdict: ");
    expect(text).toContain("All 12 prompts: zeroed, 0.00×: candidate engine failed at startup (CUDA out of memory during CUDA graph capture)");
  });
});
