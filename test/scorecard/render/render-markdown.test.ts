import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { EngineFailure } from "../../../src/vocabulary/engine-failure.js";
import { CARD_MARKER, MAX_CARD_CHARS, renderMarkdown } from "../../../src/scorecard/render/render-markdown.js";
import { scorecardSchema } from "../../../src/scorecard/scorecard-schema.js";
import { CRASH_WITH_LINKS, EXCERPT_WITH_LINKS, withEngineText } from "../../../harness/crash-with-links.js";
import { findRenderedMarkup, renderedText } from "../../../harness/find-rendered-markup.js";
import { type PromptPlan, makeCard, seedOomFailure } from "../../../harness/make-card.js";

const passingPlans: PromptPlan[] = [1.31, 1.18, 1.25, 1.12, 1.4, 1.22, 1.27, 1.3, 1.2, 1.25, 1.24, 1.29].map((speedup) => ({ speedup }));

describe("renderMarkdown", () => {
  it("renders a passing round", async () => {
    const card = makeCard(passingPlans);
    expect(scorecardSchema.parse(card)).toEqual(card);
    const markdown = renderMarkdown(card);
    expect(markdown.startsWith(`${CARD_MARKER}\n`)).toBe(true);
    expect(markdown).toContain("## ✅ Round score 1.25×; the interval's low end 1.21× clears the gate's 1.00×");
    // First the verdict and why, in a short table: no count that is zero, no rule text, no settings.
    const firstScreen = markdown.slice(0, markdown.indexOf("```mermaid"));
    expect(firstScreen).toContain("| Round score | **1.25×** median end-to-end speedup at equal length, 95% interval ");
    expect(firstScreen).toContain("(1 run of each engine, noise not calibrated) |");
    expect(firstScreen).toContain("| Prompts | 12 of 12 scored |");
    expect(firstScreen).toContain("| Gate | ✅ passes: interval low ");
    // Stated once: the folded counts do not repeat it.
    expect(markdown.split("| Gate |").length - 1).toBe(1);
    expect(firstScreen).not.toMatch(/Below tolerance|Diverged|Zeroed|median_e2e_speedup|The round score is the median|Request interval/);
    // The rest is folded.
    expect(markdown).toContain("| Noise | not calibrated: this runner's noise was never measured");
    expect(markdown).toContain("| Interval | a bootstrap over prompts: it covers prompt-to-prompt variation only");
    await expect(markdown).toMatchFileSnapshot("__snapshots__/passing-round.md");
  });

  it("renders a failing round with below-tolerance and zeroed prompts and their reasons", async () => {
    const card = makeCard([
      { speedup: 1.2 },
      { candidateTokens: 40 },
      { candidateError: "HTTP 500: Internal Server Error" },
      { speedup: 0.9 },
      { baselineError: "stream ended without [DONE]" },
      { speedup: 1.05 },
      { candidateTokens: 250 },
    ]);
    const markdown = renderMarkdown(card);
    // The headline names the first reason and how many more; the gate row says every one: the truncated answers as much as the score.
    expect(markdown).toContain("## ❌ Round score 0.97×, but 2 of 6 prompts were not scored (+3 more reasons)\n");
    expect(markdown).toContain("| Gate | ❌ does not pass: 2 of 6 prompts (33.3%) were not scored");
    expect(markdown).toContain("answered 40 of 256 tokens (tolerance 90%)");
    expect(markdown).toContain("HTTP 500: Internal Server Error");
    expect(markdown).toContain("| Excluded | 1: the baseline failed on them or answered nothing");
    await expect(markdown).toMatchFileSnapshot("__snapshots__/failing-round.md");
  });

  it("shows diverged and implausible prompts, the median agreement and the engine's claims, escaped like every reason", () => {
    const card = makeCard(passingPlans);
    card.settings.tokenizer = "ab".repeat(32);
    card.diverged = 1;
    card.implausible = 1;
    card.medianAgreement = 0.5;
    const [first, second, third] = card.prompts;
    if (!first || !second || !third) throw new Error("expected prompts");
    Object.assign(first, {
      status: "diverged",
      score: 0,
      agreement: 0,
      reason: 'answers part at token 1 of 256: baseline " The|x", candidate "<b>@team [x](y)"',
    });
    Object.assign(second, { status: "implausible", score: 0, reason: "token counts cannot be true: claimed 256 tokens" });
    Object.assign(third, { agreement: 0.75, agreedTokens: 192 });
    third.candidate = third.candidate ? { ...third.candidate, claimedTokens: 900 } : null;
    const markdown = renderMarkdown(card);
    expect(markdown).toContain(
      "| Diverged | 1: answered differently from the baseline within the first 16 tokens, or agreed on no more than 50% of the " +
        "compared length |",
    );
    expect(markdown).toContain("| Implausible | 1: claimed more tokens than the stream held |");
    expect(markdown).toContain("| Median agreement | 50% of the compared tokens are the baseline's answer (gate.minAgreement 100%) |");
    expect(markdown).toContain("❌ diverged");
    expect(markdown).toContain('baseline " The\\|x", candidate "&lt;b&gt;@\u200bteam &#91;x](y)"');
    expect(markdown).toContain(
      "candidate engine claimed 900 tokens, speedgate counted 256; agreement 75%: the answers part after 192 tokens",
    );
    expect(markdown).toContain(
      "Token counts are speedgate's own: it tokenized each streamed answer with the model's tokenizer (sha256 abababababab…)",
    );
  });

  it("shows a candidate that died at startup: engine, stage, kind, summary, hint and the traceback with its lines kept", async () => {
    const failure = seedOomFailure();
    const card = makeCard(passingPlans, { failure });
    const markdown = renderMarkdown(card);
    expect(markdown).toContain(
      "## ❌ No prompt scores: candidate engine died before becoming healthy (CUDA out of memory during CUDA graph capture)",
    );
    // The cause comes right under the headline and the facts line, the author's paragraph first: no table of counts before it.
    expect(markdown).toMatch(
      /^<!-- speedgate -->\n\n## [^\n]+\n\n<sub>[^\n]+<\/sub>\n\n\*\*For the author of the pull request:\*\* [^\n]+\n\n\| Failure \| /,
    );
    expect(markdown).toContain(
      "| Failure | `cuda_oom`: CUDA out of memory during CUDA graph capture; candidate engine at startup, exit 1 |\n| :- | :- |\n| " +
        "Error | ",
    );
    expect(markdown).toContain("| Error | `torch.OutOfMemoryError`: CUDA out of memory. Tried to allocate 136.00 MiB.");
    // Collapsed: the summary row already holds the exception line.
    expect(markdown).toContain("<details><summary>Log tail: last 66 lines</summary>");
    expect(markdown).not.toContain("<details open>");
    // Each traceback line stands on its own line, as the engine printed it.
    const log = readFileSync(new URL("../../../harness/fixtures/sglang-cuda-graph-oom.log", import.meta.url), "utf8");
    for (const line of log.trimEnd().split("\n")) expect(markdown).toContain(`\n${line}\n`);
    expect(markdown).toContain("| Round score | — (no prompt was scored) |");
    // Nothing was scored: no chart of zeros, no metrics table, and one line for the prompts that all failed alike.
    expect(markdown).not.toContain("```mermaid");
    expect(markdown).not.toContain("Where the speed came from");
    expect(markdown).toContain(
      "<details><summary>Per-prompt results (12 prompts)</summary>\n\nAll 12 prompts: ❌ zeroed, 0.00×: candidate engine failed at " +
        "startup (CUDA out of memory during CUDA graph capture). Each prompt's times are in scorecard.json.\n\n</details>",
    );
    await expect(markdown).toMatchFileSnapshot("__snapshots__/candidate-died-at-startup.md");
  });

  it("says the baseline, not the patch, failed", async () => {
    const failure: EngineFailure = {
      ...seedOomFailure(),
      engine: "baseline",
      logTail: ["RuntimeError: NCCL error: unhandled system error"],
      kind: "nccl_error",
      label: "NCCL error",
      summary: "RuntimeError: NCCL error: unhandled system error",
      hint: "Set NCCL_DEBUG=INFO.",
    };
    const markdown = renderMarkdown(makeCard(passingPlans, { failure }));
    expect(markdown).toContain(
      "## ⚠️ No verdict: the baseline failed, not the patch (baseline engine died before becoming healthy: NCCL error)",
    );
    // No verdict is not a ❌: the gate row says so too.
    expect(markdown).toContain("| Gate | ⚠️ no verdict: the baseline engine failed, not the patch");
    expect(markdown).not.toContain("does not pass");
    expect(markdown).toContain(
      "**Not the patch. For the runner's maintainers:** the unpatched baseline failed, so the round measured nothing about the patch: " +
        "fix it with the hint below, then comment `/rescore`.",
    );
    // Twelve identical rows would say one thing: one line does.
    expect(markdown).toContain("All 12 prompts: ➖ excluded, no score: baseline failed: baseline engine failed at startup (NCCL error).");
    await expect(markdown).toMatchFileSnapshot("__snapshots__/baseline-failed.md");
  });

  it("strips ANSI colours and makes backtick fences in the log harmless", () => {
    const failure: EngineFailure = {
      ...seedOomFailure(),
      logTail: ["\u001b[31mERROR\u001b[0m loading", "```", "</details> <script>alert(1)</script>", "progress 10%\rprogress 100%"],
    };
    const markdown = renderMarkdown(makeCard(passingPlans, { failure }));
    expect(markdown).not.toContain("\u001b");
    expect(markdown).toContain("\nERROR loading\n");
    expect(markdown).toContain("````text\n");
    expect(markdown).toContain("\nprogress 100%\n");
    // The fence is longer than any backtick run inside it, so the log cannot close it.
    const fenceStart = markdown.indexOf("````text\n");
    const fenceEnd = markdown.indexOf("\n````\n", fenceStart);
    expect(markdown.slice(fenceStart, fenceEnd)).toContain("</details> <script>");
  });

  it("escapes text from the engine in tables so it cannot break them, open HTML or mention people", () => {
    const card = makeCard([{ candidateError: "bad | pipe <img src=x> @octocat `code`" }, { speedup: 1.1 }]);
    const markdown = renderMarkdown(card);
    // A zero-width space after `@`: GitHub renders `&#64;` back to a mention, this it does not.
    expect(markdown).toContain("bad \\| pipe &lt;img src=x&gt; @\u200boctocat &#96;code&#96;");
    expect(markdown).not.toContain("@octocat");
  });

  it("folds the per-prompt table, however many rows, and draws a bar per prompt", () => {
    const plans: PromptPlan[] = Array.from({ length: 11 }, (_, i) => ({ speedup: 1 + i / 100 }));
    const markdown = renderMarkdown(makeCard(plans));
    expect(markdown).toContain("<details><summary>Per-prompt results (11 prompts)</summary>");
    expect(markdown).toContain('  x-axis "prompt # (as in the table)" ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11"]');
    expect(markdown).toContain("  bar [1, 1.01, 1.02,");
    expect(renderMarkdown(makeCard(plans.slice(0, 2)))).toContain("<details><summary>Per-prompt results (2 prompts)</summary>");
  });

  it("stays under 60,000 characters with a 10 MB log and 5,000 prompts, keeps the newest lines and says what it left out", () => {
    const line = (index: number): string => `[rank0] step ${index} ${"x".repeat(90)}`;
    const logTail = Array.from({ length: 100_000 }, (_, index) => line(index));
    expect(logTail.join("\n").length).toBeGreaterThan(10_000_000);
    const plans: PromptPlan[] = Array.from({ length: 5_000 }, (_, i) =>
      i % 7 === 0 ? { candidateTokens: 10 } : { speedup: 0.8 + (i % 50) / 100 },
    );
    const failure: EngineFailure = { ...seedOomFailure(), stage: "benchmark", kind: "exited", label: "exited with code 1", logTail };
    const markdown = renderMarkdown(makeCard(plans, { failure }));
    expect(markdown.length).toBeLessThanOrEqual(MAX_CARD_CHARS);
    expect(markdown).toContain(line(99_999));
    expect(markdown).not.toContain(`${line(0)}\n`);
    expect(markdown).toMatch(/older lines left out to fit GitHub's size limit/);
    expect(markdown).toMatch(/\d+ more prompts are not shown here to fit GitHub's size limit; all 5000 are in scorecard.json\./);
    expect(markdown).toContain('title "Prompts by score"');
    expect(markdown).toContain(
      "<sub>5000 prompts by score. Red: under the gate 1.00× (the 0 bucket: not scored, counts as 0); green: at or above it.</sub>",
    );
  });

  it("keeps every prompt row when 5,000 prompts alone fit only in part", () => {
    const plans: PromptPlan[] = Array.from({ length: 5_000 }, (_, i) => ({ speedup: 1 + (i % 10) / 100 }));
    const markdown = renderMarkdown(makeCard(plans));
    expect(markdown.length).toBeLessThanOrEqual(MAX_CARD_CHARS);
    expect(markdown.length).toBeGreaterThan(MAX_CARD_CHARS - 500);
    expect(markdown).toContain("| prompt-001 |");
  });

  it("links nothing and emphasises nothing of the engine's: a crash line and parted answers full of URLs and Markdown (issue #40)", () => {
    const card = makeCard(passingPlans, { failure: seedOomFailure() });
    const hostile = renderMarkdown(withEngineText(card, CRASH_WITH_LINKS, EXCERPT_WITH_LINKS));
    const plain = renderMarkdown(withEngineText(card, "RuntimeError: plain words", "plain words"));
    // The same links (the troubleshooting page's) and the same emphasis (the card's own labels) as with plain words.
    const markup = findRenderedMarkup(hostile);
    expect(markup).toEqual(findRenderedMarkup(plain));
    expect(markup.filter((each) => each.kind === "link").map((each) => each.target)).toEqual([
      "https://github.com/speedgate-dev/speedgate/blob/v0.1.0/docs/troubleshooting/cuda_oom.md",
    ]);
    // Shown literally: the Error row reads as the engine printed it, its URLs whole in code spans.
    const error = hostile.split("\n").find((line) => line.startsWith("| Error | ")) ?? "";
    expect(renderedText(error.slice("| Error | ".length, -" |".length))).toBe(CRASH_WITH_LINKS);
    expect(error).toContain("`https://speedgate-approve.example/pr?id=1`");
  });
});
