import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Scorecard } from "../../src/scorecard/scorecard-schema.js";
import { regateScorecard } from "../../src/github/regate-scorecard.js";
import { TEST_TOKENIZER_PATH } from "../../harness/fixtures/tokenizer/generate-tokenizer.js";
import { PROMPT_IDS, runSimRound, simCommand, writeCliRound } from "../cli/support/sim-round.js";
import { makeTempDir } from "../support/make-temp-dir.js";
import { concatPatterns } from "../support/concat-patterns.js";

/*
 * A batching engine that answers some prompts either of two ways from run to run at temperature 0,
 * as llama.cpp's CUDA server did on an H200 (#28), through `speedgate run` against the reference
 * engine under concurrent load (requests 15 ms apart into a batch that costs 30% more per stream):
 * an honest faster candidate whose answers vary the same way passes with every prompt scored, and
 * candidates that hide filler or stops in that variation do not.
 */

const BATCH = ["--batch-cost", "0.3"];
const BASELINE = ["--ttft-ms", "40", "--itl-ms", "10", "--output-tokens", "48", ...BATCH];
/**
 * 2.5× faster. At 20% (8.3 ms a token), a loaded machine's few milliseconds of overhead on every token of
 * both engines left little between the measured ratio and the 1× bar the honest candidate must pass. At 1.5×,
 * one run of the candidate's held back by a third of a second (its six answers in flight together) scores
 * about 1×, and four runs push each run's level out by 1.8× around their mean: the interval then holds 1×
 * and the honest candidate fails. At 2.5× that run still scores about 1.4× and the interval's low end stays
 * above 1.2×.
 */
const FASTER = ["--ttft-ms", "16", "--itl-ms", "4", "--output-tokens", "48", ...BATCH];
/** Every prompt is bistable: a quarter of the way in, each request takes the second continuation half of the time. */
const BISTABLE = ["--branch-every", "1", "--branch-at-fraction", "0.25", "--branch-probability", "0.5"];
/** Each seat draws its own continuations, as two processes of a real engine do. */
const SEED = { baseline: ["--seed", "11"], candidate: ["--seed", "12"] };
const BENCH = {
  maxTokens: 64,
  requestIntervalMs: 15,
  warmupRequests: 4,
  runs: 4,
  tokenizer: { path: TEST_TOKENIZER_PATH, from: "runner" as const },
};

async function playRound(
  baseline: string[],
  candidate: string[],
  gate: Record<string, unknown> = {},
): Promise<Scorecard & { markdown: string }> {
  // Each engine counts its own starts, so every start draws its own continuations.
  const counters = await makeTempDir("speedgate-starts-");
  const { dir, configPath } = await writeCliRound({
    baseline: { command: simCommand(...baseline, ...SEED.baseline, "--start-counter", join(counters, "baseline")) },
    candidate: { command: simCommand(...candidate, ...SEED.candidate, "--start-counter", join(counters, "candidate")) },
    bench: BENCH,
    gate: { minRoundScore: 1, minPrompts: PROMPT_IDS.length, ...gate },
  });
  const { card, out } = await runSimRound(configPath, dir);
  if (!card) throw new Error("no card");
  return { ...card, markdown: await readFile(join(out, "scorecard.md"), "utf8") };
}

describe("a nondeterministic engine (speedgate run, every prompt answered either of two ways, 4 runs)", () => {
  it(
    "passes an honest 2.5× faster candidate whose answers vary the same " + "way, every prompt scored against the answer it gives",
    async () => {
      const card = await playRound([...BASELINE, ...BISTABLE], [...FASTER, ...BISTABLE]);
      expect(card.promptsScored).toBe(PROMPT_IDS.length);
      expect(card.unscored).toBe(0);
      // The baseline itself answers prompts more than one way, and the card says so.
      expect(card.prompts.some((prompt) => (prompt.baselineAnswers ?? 0) >= 2)).toBe(true);
      // Some candidate answers are the baseline's from another run: scored against that run, not zeroed.
      expect(card.prompts.flatMap((prompt) => prompt.runs).some((run) => run.match === "other")).toBe(true);
      // The card says so per prompt, and in the section on the baseline's own variation.
      expect(card.markdown).toMatch(/2 answers seen from the baseline; run \d against run \d's answer/);
      expect(card.markdown).toContain("### The baseline's own answers vary");
      expect(card.gate.reasons).toEqual([]);
      expect(card.gate.passed).toBe(true);
      expect(card.roundScore).toBeGreaterThan(1.1);
    },
  );

  it(
    "fails a candidate that streams filler wherever it would take the second continuation, at the very token the baseline's own " +
      "answers part",
    async () => {
      const card = await playRound([...BASELINE, ...BISTABLE], [...BASELINE, ...BISTABLE, "--cheat-filler-at-branch"]);
      expect(card.gate.passed).toBe(false);
      expect(card.gate.reasons).toContainEqual(
        expect.stringMatching(
          concatPatterns(
            /^\d+ of 24 answers \([\d.]+%\) are none the baseline gave \(.*\), more than the engine's own answers show: shuffling /,
            /which answers came from which engine gave as many in .* of shuffles, under 1%/,
          ),
        ),
      );
      // The filler answers are timed only up to where they part, and said to part where the baseline's own do.
      const parted = card.prompts.flatMap((prompt) => prompt.runs).filter((run) => run.match === "none");
      expect(parted.length).toBeGreaterThan(0);
      expect(parted.every((run) => run.baselinePartsHere === true && run.agreedBaselineMs !== null)).toBe(true);
      // The app's re-gate of the artifact agrees from the card alone.
      expect(regateScorecard(card, { minRoundScore: 1, maxUnscored: 0.1, minPrompts: PROMPT_IDS.length }, null).gate.passed).toBe(false);
    },
  );

  it(
    "fails a 2.5× faster candidate that stops at 95% of half its answers where every baseline run ran on, though 95% is within the " +
      "tolerance",
    async () => {
      const stops = ["--stop-early", "p1,p3,p5", "--stop-early-fraction", "0.95"];
      const card = await playRound(BASELINE, [...FASTER, ...stops]);
      const cut = card.prompts.find((prompt) => prompt.id === "p1");
      expect(cut?.runs[0]).toMatchObject({ status: "scored", match: "none", comparedTokens: 45 });
      expect(cut?.runs[0]?.reason).toBe(
        "stopped at token 45 where every baseline answer it follows ran on (to 48): an end the baseline never gives",
      );
      expect(card.gate.passed).toBe(false);
      expect(card.gate.reasons).toContainEqual(
        expect.stringMatching(
          concatPatterns(
            /^12 of 24 answers \(50%\) are none the baseline gave \(parted or stopped, timed to there: p1 run 1, p3 run 1, p5 run 1\), /,
            /while the baseline answered every prompt the same way in every run/,
          ),
        ),
      );
    },
  );
});
