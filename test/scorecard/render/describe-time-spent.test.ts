import { describe, expect, it } from "vitest";
import { describeTimeSpent, formatDuration } from "../../../src/scorecard/render/describe-time-spent.js";
import { renderMarkdown } from "../../../src/scorecard/render/render-markdown.js";
import { renderText } from "../../../src/scorecard/render/render-text.js";
import { makeCard } from "../../../harness/make-card.js";
import { FOUR_RUNS_TIME } from "../../support/make-scenario-card.js";

const twelve = Array.from({ length: 12 }, () => ({ speedup: 1.3 }));

describe("formatDuration", () => {
  it("says a span as people do, seconds to hours", () => {
    expect([40.4, 1_400, 9_950, 12_400, 59_600, 60_000, 252_000, 3_599_000, 3_780_000].map(formatDuration)).toEqual([
      "40 ms",
      "1.4 s",
      "9.9 s",
      "12 s",
      "1 min",
      "1 min",
      "4 min 12 s",
      "59 min 59 s",
      "1 h 3 min",
    ]);
  });
});

describe("describeTimeSpent", () => {
  it("gives each engine's starts with their cost each, and the starts' share of the round", () => {
    const { rows, sentence, brief } = describeTimeSpent(FOUR_RUNS_TIME);
    expect(rows).toEqual([
      ["Engine", "Starts", "Starting (until healthy)", "Warm-up", "Benchmark", "Stopping", "In all"],
      ["Baseline", "4", "6 min 12 s (1 min 33 s each)", "40 s", "5 min", "8.0 s", "12 min"],
      ["Candidate", "4", "6 min 20 s (1 min 35 s each)", "41 s", "4 min 50 s", "9.0 s", "12 min"],
    ]);
    expect(sentence).toBe(
      "The round took 32 min 10 s: preparing (patch and build) 3 min 2 s (9.4%), engine starts 12 min 32 s (39%), warm-up 1 min 21 " +
        "s, benchmarking 9 min 50 s (30.6%), stopping 17 s. " +
        "Each run starts each engine once, whatever the number of scenarios: 4 runs cost 4 starts of each engine, and buy an " +
        "interval that sees how much engine starts differ in speed (with a calibration of the runner, fewer runs hold).",
    );
    expect(brief).toBe("engine starts 39% of 32 min 10 s");
  });

  it("says what one run gives up, and no share of a round that took no time", () => {
    const once = { starts: 1, startMs: 0, warmupMs: 0, benchmarkMs: 0, stopMs: 0 };
    const { rows, sentence, brief } = describeTimeSpent({ totalMs: 0, prepareMs: 0, baseline: once, candidate: once });
    expect(rows[1]).toEqual(["Baseline", "1", "0 ms", "0 ms", "0 ms", "0 ms", "0 ms"]);
    expect(sentence).toContain("Each engine started once: one run sees nothing of how much engine starts differ in speed.");
    expect(sentence).not.toContain("%");
    expect(brief).toBe("engine starts 0 ms");
  });
});

describe("where the time went on a card without scenarios", () => {
  it("is in the method section's table and summary, and in the terminal card, only when the card recorded it", () => {
    const card = makeCard(twelve);
    const without = renderMarkdown(card);
    expect(without).not.toContain("Where the time went");
    const markdown = renderMarkdown({ ...card, timeSpent: FOUR_RUNS_TIME });
    expect(markdown).toContain(
      "How the score was measured: every count, the settings and the rule (1 run of each engine, noise not calibrated, engine starts " +
        "39% of 32 min 10 s)",
    );
    const method = markdown.slice(markdown.indexOf("<summary>How the score was measured"));
    expect(method.indexOf("**Where the time went**")).toBeLessThan(method.indexOf("The round score is the median"));
    expect(method).toContain("| Candidate | 4 | 6 min 20 s (1 min 35 s each) | 41 s | 4 min 50 s | 9.0 s | 12 min |");

    expect(renderText(card)).not.toContain("Where the time went");
    const text = renderText({ ...card, timeSpent: FOUR_RUNS_TIME });
    expect(text).toContain(
      "Where the time went:\n  Engine     Starts  Starting (until healthy)      Warm-up  Benchmark   Stopping  In all\n  Baseline   " +
        "4       6 min 12 s (1 min 33 s each)  40 s     5 min       8.0 s     12 min\n",
    );
    expect(text).toContain("  The round took 32 min 10 s: preparing (patch and build) 3 min 2 s (9.4%), engine starts 12 min 32 s (39%)");
  });
});
