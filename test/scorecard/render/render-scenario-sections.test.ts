import { describe, expect, it } from "vitest";
import { utf8Length } from "../../../src/scorecard/render/fit-utf8-bytes.js";
import { assembleScenarioCard } from "../../../src/scorecard/assemble-scenario-card.js";
import { MAX_CARD_CHARS, renderMarkdown } from "../../../src/scorecard/render/render-markdown.js";
import { renderMarkdownWithinBytes } from "../../../src/scorecard/render/render-markdown-within-bytes.js";
import type { Scorecard } from "../../../src/scorecard/scorecard-schema.js";
import { scorecardSchema } from "../../../src/scorecard/scorecard-schema.js";
import { makeCard, seedOomFailure } from "../../../harness/make-card.js";
import { requireDeclaredScenarios } from "../../../src/github/require-declared-scenarios.js";
import { renderText } from "../../../src/scorecard/render/render-text.js";
import { FOUR_RUNS_TIME, readExampleCard, slowerCard, underLoad } from "../../support/make-scenario-card.js";
import { concatPatterns } from "../../support/concat-patterns.js";

const passing = await readExampleCard("passing-round");
const calibrated = await readExampleCard("calibrated-three-runs");
const large = await readExampleCard("large-round");

/** The baseline's first token mostly waiting in its queue (the engine's own prompt time 3.9 ms of 120 ms). */
function queueBound(card: Scorecard): Scorecard {
  const side = { requests: 12, promptMs: 3.9, decodeMsPerToken: 2, statistic: "median" as const };
  return { ...card, engineTimes: { source: "llama.cpp timings", baseline: side, candidate: side } };
}

function threeScenarios(): Scorecard {
  return assembleScenarioCard(
    [
      { name: "chat-rate4", card: underLoad(calibrated, { requestIntervalMs: 250, arrival: "poisson" }) },
      { name: "chat-rate16", card: queueBound(underLoad(slowerCard(), { requestIntervalMs: 62.5, arrival: "poisson" })) },
      {
        name: "decode-c1",
        card: underLoad(passing, { concurrency: 1, synthetic: { inputTokens: 128, outputTokens: 256, count: 12, seed: 1 } }),
      },
    ],
    0.97,
    { timeSpent: FOUR_RUNS_TIME },
  );
}

/** Everything above the first fold: what a reader sees before opening anything. */
function firstScreen(markdown: string): string {
  return markdown.slice(0, markdown.indexOf("<details>"));
}

describe("renderMarkdown with scenarios", () => {
  it(
    "says on the first screen, and in the headline, why a card whose every " + "scenario passed still fails: a required scenario it lacks",
    () => {
      const card = assembleScenarioCard([{ name: "chat", card: passing }], null);
      const lacking = requireDeclaredScenarios(card, { names: ["chat", "decode-c32"] });
      const markdown = renderMarkdown(lacking);
      expect(markdown).toContain(
        "## ❌ 1 of 1 scenarios passed, but the card has no scenario decode-c32, which the repository's app config declares " +
          "(`gate.scenarios`) — chat ",
      );
      expect(firstScreen(markdown)).toContain(
        "❌ **Not passed**: the card has no scenario decode-c32, which the repository's app config declares (`gate.scenarios`): add it to " +
          "the round config's scenarios",
      );
      expect(renderText(lacking)).toContain("\nNot passed: the card has no scenario decode-c32");
      // A scenario's own failure is its row's to show: no round-level line for it.
      expect(firstScreen(renderMarkdown(threeScenarios()))).not.toContain("**Not passed**");
    },
  );

  it("notes on the first screen the scenarios that sent the same prompts to one engine start, and nothing when each had its own", () => {
    const withHash = (card: Scorecard, promptsHash: string): Scorecard => ({ ...card, provenance: { ...card.provenance, promptsHash } });
    const shared = assembleScenarioCard(
      [
        { name: "chat-rate4", card: withHash(underLoad(passing, { requestIntervalMs: 250 }), "aa") },
        { name: "chat-rate16", card: withHash(underLoad(passing, { requestIntervalMs: 62.5 }), "aa") },
        { name: "decode-c1", card: withHash(underLoad(passing, { concurrency: 1 }), "bb") },
      ],
      null,
    );
    expect(firstScreen(renderMarkdown(shared))).toMatch(
      /> \[!NOTE\]\n> Scenarios chat-rate4 and chat-rate16 send the same prompts, .*prefix cache/,
    );
    expect(renderMarkdown(threeScenarios())).not.toMatch(/send the same prompts/);
  });

  it("names each scenario's prompts file in its row, escaped as every text the card did not write", () => {
    const card = assembleScenarioCard(
      [
        { name: "chat", card: underLoad(passing, { requestIntervalMs: 250, promptsSource: "prompts/chat.jsonl" }) },
        { name: "odd", card: underLoad(passing, { requestIntervalMs: 250, promptsSource: "p/@team_#12|<b>.jsonl" }) },
      ],
      null,
    );
    const screen = firstScreen(renderMarkdown(card));
    const total = passing.promptsTotal;
    expect(screen).toContain(`| **chat** | target ≥ 1.00× | one every 250 ms | ${total} from \`prompts/chat.jsonl\` | `);
    // No mention, no issue reference, no table break, no HTML.
    expect(screen).toContain(
      `| **odd** | target ≥ 1.00× | one every 250 ms | ${total} from p/@\u200bteam\\_#\u200b12\\|&lt;b&gt;\`.jsonl\` | `,
    );
  });

  it("opens on the verdict over every scenario and a table of them, before any fold", () => {
    const card = threeScenarios();
    expect(scorecardSchema.parse(card)).toEqual(card);
    const screen = firstScreen(renderMarkdown(card));
    expect(screen).toContain(
      "## ❌ 2 of 3 scenarios passed — chat-rate4 1.12× faster; decode-c1 1.26× faster; chat-rate16 regressed 0.91× &#91;0.90×, 0.92×]\n",
    );
    expect(screen).toContain("<sub>sglang · 3 scenarios · 36 prompts · on gpu-runner-3");
    expect(screen).toContain(
      [
        "| Scenario | Role | Load | Prompts | Score | Interval | Verdict |",
        "| :- | :- | :- | :- | -: | :- | :- |",
        "| **chat-rate4** | target ≥ 1.02× | one every 250 ms on average (Poisson) | 12 from a prompt file | 1.12× | [1.09×, 1.15×] | " +
          "✅ passed |",
        "| **chat-rate16** | target ≥ 1.00× | one every 62.5 ms on average (Poisson) | 12 from a prompt file | 0.91× | " +
          "[0.90×, 0.92×] | ❌ interval " +
          "low 0.90× &lt; 1.00× |",
        "| **decode-c1** | target ≥ 1.00× | concurrency 1 | 12 synthetic, 128→256 tokens | 1.26× | [1.23×, 1.29×] | ✅ passed |",
      ].join("\n"),
    );
    // The queue-bound scenario is named where the verdict is read, not only in its fold.
    expect(screen).toContain("> **Queue-bound**: Scenario chat-rate16 was queue-bound: its score measures how the queue drains");
    // No single scenario's score table or chart stands on the first screen: they would read as the round's.
    expect(screen).not.toMatch(/\| Round score \||```mermaid/);
  });

  it("folds each scenario's own card under its name, mark and score: score table, chart, speed, prompts and counts", () => {
    const markdown = renderMarkdown(threeScenarios());
    const summaries = [...markdown.matchAll(/<details><summary>([^<]*)<\/summary>/g)].map((match) => match[1]);
    expect(summaries.filter((summary) => / — /.test(summary ?? ""))).toEqual([
      "✅ chat-rate4 — 1.12× [1.09×, 1.15×]",
      "❌ chat-rate16 — 0.91× [0.90×, 0.92×]",
      "✅ decode-c1 — 1.26× [1.23×, 1.29×]",
    ]);
    const fold = markdown.slice(markdown.indexOf("<summary>❌ chat-rate16"), markdown.indexOf("<summary>✅ decode-c1"));
    expect(fold).toContain("| Round score | **0.91×** median end-to-end speedup at equal length, 95% interval 0.90×–0.92×");
    expect(fold).toContain("| Gate | ❌ does not pass: interval low 0.90× &lt; 1.00× |");
    expect(fold).toContain("> **Queue-bound round**: the baseline's median time to first token was");
    expect(fold).toContain("```mermaid");
    expect(fold).toContain("<summary>Where the speed came from: TTFT, TPOT, ITL");
    expect(fold).toContain("<summary>Per-prompt results (12 prompts)</summary>");
    expect(fold).toContain("| Request interval | Runs |");
    expect(fold).toContain("62.5 ms (Poisson mean)");
    // The decode scenario's fold says its prompts were synthetic; the chat scenarios' do not.
    expect(markdown.slice(markdown.indexOf("<summary>✅ decode-c1"))).toContain("Prompts: 12 synthetic prompts of exactly 128 tokens each");
    expect(fold).not.toContain("synthetic prompts of exactly");
  });

  it("says what the scenarios share once: the rule, how the gate combines them and where the time went, then provenance", () => {
    const markdown = renderMarkdown(threeScenarios());
    expect(markdown.split("The round score is the median, over prompts").length - 1).toBe(1);
    expect(markdown.split("<summary>Provenance and GPU state</summary>").length - 1).toBe(1);
    const method = markdown.slice(markdown.indexOf("<summary>How the score was measured: how the scenarios combine"));
    expect(method).toMatch(
      concatPatterns(
        /^<summary>How the score was measured: how the scenarios combine, where the time went and the rule \(engine starts 39% of 32 /,
        /min 10 s\)<\/summary>/,
      ),
    );
    // The verdict is the first screen's (the headline and the scenario table), not repeated in the fold.
    expect(method).not.toContain("| Gate |");
    expect(markdown.split("chat-rate16: interval low 0.90×").length - 1).toBe(0);
    expect(method).toContain("no scenario's interval lies wholly below gate.maxRegression 0.97×");
    expect(method).toContain("| Baseline | 4 | 6 min 12 s (1 min 33 s each) | 40 s | 5 min | 8.0 s | 12 min |");
  });

  it("shows why a scenario that passed its own gate failed the round's gate.maxRegression", () => {
    const markdown = renderMarkdown(
      assembleScenarioCard(
        [
          { name: "chat", card: passing },
          { name: "prefill", card: slowerCard({ minRoundScore: 0.85 }) },
        ],
        0.97,
      ),
    );
    expect(firstScreen(markdown)).toContain(
      "| **prefill** | target ≥ 0.85× | one every 500 ms | 12 from a prompt file | 0.91× | [0.90×, 0.92×] | " +
        "❌ regressed beyond `gate.maxRegression` 0.97× |",
    );
    const fold = markdown.slice(markdown.indexOf("<summary>❌ prefill"));
    expect(fold).toContain("| Gate | ✅ passes: interval low 0.90× ≥ 0.85× |");
    expect(fold).toContain(
      "❌ **Not passed in this round**: regressed beyond `gate.maxRegression`, its interval's high end 0.92× &lt; 0.97×.",
    );
  });

  it("leads a card whose candidate never started with the failure, as any card, then the table", () => {
    const failure = seedOomFailure();
    const dead = makeCard([{ speedup: 1.2 }, { speedup: 1.1 }], { failure });
    const markdown = renderMarkdown(
      assembleScenarioCard(
        [
          { name: "chat", card: dead },
          { name: "decode", card: dead },
        ],
        null,
      ),
    );
    expect(markdown).toContain(
      "## ❌ No prompt scores: candidate engine died before becoming healthy (CUDA out of memory during CUDA graph capture)\n",
    );
    const failureAt = markdown.indexOf("| Failure | `cuda_oom`");
    const tableAt = markdown.indexOf("| Scenario | Role | Load |");
    expect(failureAt).toBeGreaterThan(0);
    expect(tableAt).toBeGreaterThan(failureAt);
    expect(markdown).toContain(
      "| **chat** | target ≥ 1.00× | one every 500 ms | 2 from a prompt file | — | — | ❌ no score: candidate engine failed at startup |",
    );
  });

  it("names the scenario a candidate died in, before the table of the scenarios that were scored", () => {
    const midway = { ...seedOomFailure(), stage: "benchmark" as const, prompt: { number: 3, id: "prompt-003" } };
    const scored = makeCard(
      [1.2, 1.1, 1.3, 1.2, 1.1, 1.3, 1.2, 1.1, 1.3, 1.2].map((speedup) => ({ speedup })),
      { failure: midway },
    );
    const named = { ...scored, failure: { ...midway, scenario: "decode-c32" } };
    const markdown = renderMarkdown(
      assembleScenarioCard(
        [
          { name: "chat", card: named },
          { name: "decode-c32", card: named },
        ],
        null,
      ),
    );
    // #39: the crash leads, before the table of what was scored: which engine, stage and kind, and who acts.
    expect(markdown).toContain(
      "## ❌ Candidate engine died during prompt 3 of scenario decode-c32's benchmark (CUDA out of memory during CUDA graph capture) " +
        "— 0 of 2 scenarios passed\n",
    );
    expect(markdown.indexOf("**For the author of the pull request:**")).toBeGreaterThan(0);
    expect(markdown.indexOf("**For the author of the pull request:**")).toBeLessThan(markdown.indexOf("| Failure | `cuda_oom`"));
    expect(markdown.indexOf("| Failure | `cuda_oom`")).toBeLessThan(markdown.indexOf("| Scenario | Role | Load |"));
    expect(markdown).toContain("candidate engine at benchmark, scenario decode-c32, prompt 3 (prompt-003)");
  });

  it("fits 32 scenarios of 80 prompts and a long log in GitHub's limits: the folds give way first, the table and the log tail stay", () => {
    const failure = {
      ...seedOomFailure(),
      stage: "benchmark" as const,
      logTail: Array.from({ length: 2_000 }, (_, index) => `engine log line ${index + 1} ${"x".repeat(60)}`),
    };
    const scenarios = Array.from({ length: 32 }, (_, index) => ({
      name: `scenario-${index + 1}`,
      card: { ...large, failure: { ...failure, scenario: "scenario-3" } },
    }));
    const card = assembleScenarioCard(scenarios, 0.97, { timeSpent: FOUR_RUNS_TIME });
    const markdown = renderMarkdown(card);
    expect(markdown.length).toBeLessThanOrEqual(MAX_CARD_CHARS);
    expect(markdown).not.toContain("card cut to fit");
    for (const { name } of scenarios)
      expect(markdown).toContain(`| **${name}** | target ≥ 1.05× | one every 250 ms | 80 from a prompt file | 1.10× |`);
    // The log tail, which every scenario shares, lost its oldest lines only after every scenario's fold went.
    expect(markdown).toContain(
      "Each scenario's details are left out to fit GitHub's size limit: scorecard.json has them under `scenarios`.",
    );
    expect(markdown).not.toContain("<summary>❌ scenario-1 —");
    expect(markdown).toMatch(/Log tail: last \d+ lines \(\d+ older lines left out to fit GitHub's size limit\)/);
    expect(markdown).toContain("engine log line 2000");
    expect(markdown).toContain("**Where the time went**");

    const bytes = renderMarkdownWithinBytes(card, 65_535);
    expect(utf8Length(bytes)).toBeLessThanOrEqual(65_535);
    expect(bytes).toContain("| **scenario-32** |");
  });

  it(
    "gives 32 scenarios of 80 prompts their score tables, without their charts, speed tables and prompt rows, when nothing else must " +
      "give",
    () => {
      const markdown = renderMarkdown(
        assembleScenarioCard(
          Array.from({ length: 32 }, (_, index) => ({ name: `s${index + 1}`, card: large })),
          null,
        ),
      );
      expect(markdown.length).toBeLessThanOrEqual(MAX_CARD_CHARS);
      expect(markdown.split("Its speed table, per-prompt results and counts are left out to fit GitHub's size limit").length - 1).toBe(32);
      const last = markdown.slice(markdown.indexOf("<summary>❌ s32 — 1.10× [1.09×, 1.11×]</summary>"));
      expect(last).toContain("| Round score | **1.10×** median end-to-end speedup at equal length");
      expect(markdown).not.toContain("```mermaid");
    },
  );

  it("gives up each scenario's prompt rows before its chart", () => {
    const card = assembleScenarioCard(
      ["a", "b", "c"].map((name) => ({ name, card: large })),
      null,
    );
    const whole = renderMarkdown(card);
    expect(whole).not.toContain("more prompts are not shown");
    const markdown = renderMarkdown(card, { maxChars: whole.length - 2_000 });
    expect(markdown.length).toBeLessThanOrEqual(whole.length - 2_000);
    expect(markdown.split("```mermaid").length - 1).toBe(3);
    expect(markdown).toMatch(/\d+ more prompts are not shown here to fit GitHub's size limit; all 80 are in scorecard.json/);
  });

  it("keeps every fold whole when they fit", () => {
    const markdown = renderMarkdown(threeScenarios());
    expect(markdown).not.toMatch(/left out to fit GitHub's size limit|more prompts are not shown/);
  });
});
