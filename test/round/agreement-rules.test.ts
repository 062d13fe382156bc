import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Scorecard } from "../../src/scorecard/scorecard-schema.js";
import { regateScorecard } from "../../src/github/regate-scorecard.js";
import { TEST_TOKENIZER_PATH } from "../../harness/fixtures/tokenizer/generate-tokenizer.js";
import { PROMPT_IDS, runSimRound, simCommand, writeCliRound } from "../cli/support/sim-round.js";
import { makeTempDir } from "../support/make-temp-dir.js";

/*
 * The verdict holds to the last token (`speedgate run` end to end against the reference engine, with
 * requests in flight together): an engine that streams the baseline's start and then filler that
 * costs no decode work leaves the batch and speeds up every other request, yet never passes; an
 * honest faster engine whose answers drift late on some prompts still does; and a cut the baseline
 * itself shows in another run is not the patch's fault.
 */

/** 48 tokens at 10 ms each after a 40 ms first token; in a batch that costs 30% more per other stream. */
const BATCH = ["--batch-cost", "0.3"];
const BASELINE = ["--ttft-ms", "40", "--itl-ms", "10", "--output-tokens", "48", ...BATCH];
/**
 * 2.5× faster. At 1.25× (8 ms a token), a loaded machine's few milliseconds of overhead on every token
 * of both engines pulled the measured ratio toward 1, close to the 1.1× and 1× these tests need. At 1.6×,
 * one run of six answers in flight together can be held back by a fifth of a second, lengthening their
 * shared start by half (seen beside four CPU-bound processes): that puts a 1.6× run's interval at about
 * 1×, and the honest candidate's card gains a reason it should not have. 2.5× leaves it well above.
 */
const FASTER = ["--ttft-ms", "16", "--itl-ms", "4", "--output-tokens", "48", ...BATCH];

const withTokenizer = { tokenizer: { path: TEST_TOKENIZER_PATH, from: "runner" as const } };
/** Requests 15 ms apart: the six answers of a run are all in flight together. */
const BENCH = { maxTokens: 64, requestIntervalMs: 15, warmupRequests: 4, ...withTokenizer };

async function playRound(
  baseline: string[],
  candidate: string[],
  extra: { gate?: Record<string, unknown>; bench?: Record<string, unknown> } = {},
): Promise<Scorecard> {
  const { dir, configPath } = await writeCliRound({
    baseline: { command: simCommand(...baseline) },
    candidate: { command: simCommand(...candidate) },
    bench: { ...BENCH, ...extra.bench },
    gate: { minRoundScore: 1, minPrompts: PROMPT_IDS.length, ...extra.gate },
  });
  const { card } = await runSimRound(configPath, dir);
  if (!card) throw new Error("no card");
  return card;
}

/** The rules turned off: what the cheat would score timed at k with nothing judging its answers. */
const RULES_OFF = {
  bench: { agreementTokens: 0, minPromptAgreement: 0 },
  gate: { minAgreement: 0, maxUnexplained: 0.99, maxUnscored: 0.99 },
};

describe("the verdict holds to the last token (speedgate run, reference engine under concurrent load)", () => {
  it.each([
    ["17", "17 tokens"],
    ["25%", "25% of the answer"],
    ["50%", "50% of the answer"],
  ])(
    "the baseline's first %s tokens then free filler (%s) never passes, though it leaves the batch and speeds up the rest",
    async (after) => {
      const cheat = [...BASELINE, "--cheat-filler-after", after];
      const card = await playRound(BASELINE, cheat);
      expect(card.gate.passed).toBe(false);
      expect(card.diverged).toBe(PROMPT_IDS.length);
      expect(card.roundScore).toBe(0);
      const first = card.prompts[0];
      expect(first?.status).toBe("diverged");
      expect(first?.reason).toMatch(/^answers part at token \d+ of 48/);
      // The card keeps what the status rests on.
      expect(first?.runs[0]?.evidence).toMatchObject({ baselineClaimed: 48, candidateClaimed: 48 });
      expect(first?.runs[0]?.evidence?.partsAt).toBe((first?.runs[0]?.agreedTokens ?? 0) + 1);
      expect(first?.runs[0]?.evidence?.candidateExcerpt).toMatch(/engine engine/);
      // The app's re-gate of the artifact, from its per-run data alone, agrees.
      const regated = regateScorecard(card, { minRoundScore: 1, maxUnscored: 0.1, minPrompts: PROMPT_IDS.length }, null);
      expect(regated.gate.passed).toBe(false);
      expect(regated.diverged).toBe(PROMPT_IDS.length);
    },
  );

  it.each(["75%", "90%"])(
    "the baseline's first %s of every answer then free filler never passes: each prompt scores, but the median answer is not the " +
      "baseline's",
    async (after) => {
      // With gate.minAgreement at 75% (the default before), filler after 75% and 80% passed here at 1.01x and 1.02x.
      const card = await playRound(BASELINE, [...BASELINE, "--cheat-filler-after", after]);
      expect(card.diverged).toBe(0);
      expect(card.prompts.every((prompt) => prompt.status === "scored" && (prompt.agreement ?? 1) < 1)).toBe(true);
      expect(card.gate.passed).toBe(false);
      expect(card.gate.reasons.some((reason) => reason.includes("< gate.minAgreement 100%"))).toBe(true);
      const regated = regateScorecard(card, { minRoundScore: 1, maxUnscored: 0.1, minPrompts: PROMPT_IDS.length }, null);
      expect(regated.gate.passed).toBe(false);
    },
  );

  it(
    "with the agreement rules off, the filler's own speed is still not credited: a parting answer scores no faster than over its " +
      "shared start",
    async () => {
      // Timed at k alone, this cheat scored 1.80× here (2.37× filler after 17 tokens, 3.15× after 25%); over the shared
      // start both engines are the same, about 1×. Three runs, and a bar between the two: with one run, a busy machine
      // that held the baseline's six answers in flight back by a tenth of a second scored the shared start 1.15×.
      const card = await playRound(BASELINE, [...BASELINE, "--cheat-filler-after", "50%"], {
        ...RULES_OFF,
        bench: { ...RULES_OFF.bench, runs: 3 },
      });
      expect(card.promptsScored).toBe(PROMPT_IDS.length);
      expect(card.roundScore).toBeLessThan(1.3);
      const runs = card.prompts.flatMap((prompt) => prompt.runs);
      expect(runs).toHaveLength(3 * PROMPT_IDS.length);
      expect(runs.every((run) => run.comparedTokens === 48 && run.agreedTokens === 24)).toBe(true);
      // At k the filler is fast; over the shared start it is not. The median answer's, not one answer's a stall may have hit.
      const atK = runs.map((run) => (run.baselineMs ?? 0) / (run.candidateMs ?? Infinity)).sort((a, b) => a - b);
      expect(atK[Math.floor(atK.length / 2)]).toBeGreaterThan(1.3);
    },
  );

  it(
    "an honest 2.5× engine whose every third answer parts after 60% of its tokens is the maintainers' call: it fails by default, timed " +
      "over the shared tokens, and passes once they allow it",
    async () => {
      const card = await playRound(BASELINE, [...FASTER, "--diverge-after-fraction", "0.6", "--diverge-every", "3"]);
      expect(card.promptsScored).toBe(PROMPT_IDS.length);
      expect(card.roundScore).toBeGreaterThan(1.1);
      expect(card.medianAgreement).toBe(1);
      const third = card.prompts[2];
      expect(third).toMatchObject({ status: "scored", comparedTokens: 48 });
      expect(third?.agreement).toBeCloseTo(28 / 48, 10);
      expect(third?.runs.every((run) => run.match === "none")).toBe(true);
      expect(card.prompts[0]?.agreement).toBe(1);
      // Every parting no baseline run explains counts, whatever its share: one run shows nothing of the engine's own variation.
      expect(card.gate.passed).toBe(false);
      expect(card.gate.reasons).toEqual([
        "2 of 6 answers (33.3%) are none the baseline gave (parted or stopped, timed to there: p3, p6), with one run the baseline's " +
          "own answers show nothing of its variation, and above gate.maxUnexplained 0%",
      ]);
      // A repository that accepts a numerics change says so (gate.maxUnexplained), and the app's re-gate passes it.
      expect(
        regateScorecard(card, { minRoundScore: 1, maxUnscored: 0.1, minPrompts: PROMPT_IDS.length, maxUnexplained: 0.34 }, null).gate
          .passed,
      ).toBe(true);
    },
  );
});

describe("a cut the baseline shows itself is not the patch's fault (bench.runs 2)", () => {
  /** p3 stops at a quarter of its length in the given start of the engine (0-based), as a batch-dependent early stop would in some runs. */
  // One prompt in six scores 0 here whoever is at fault: the round score, not the interval, and an unscored allowance that holds it.
  const TWO_RUNS_GATE = { use: "round-score", maxUnscored: 0.2 };
  const stopsInStart = (counter: string, start: number) => [
    "--stop-early",
    "p3",
    "--stop-early-on-starts",
    String(start),
    "--start-counter",
    counter,
  ];

  it(
    "explains the candidate's cut of p3 in run 1 by the baseline's own cut " + "of p3 in run 2: scored against that answer, and passes",
    async () => {
      const counters = await makeTempDir("speedgate-starts-");
      const card = await playRound(
        [...BASELINE, ...stopsInStart(join(counters, "baseline"), 1)],
        [...FASTER, ...stopsInStart(join(counters, "candidate"), 0)],
        {
          bench: { runs: 2 },
          gate: TWO_RUNS_GATE,
        },
      );
      const p3 = card.prompts.find((prompt) => prompt.id === "p3");
      expect(p3?.status).toBe("scored");
      expect(p3?.runs[0]).toMatchObject({ status: "scored", match: "other", baselineRun: 2, comparedTokens: 12 });
      expect(p3?.baselineAnswers).toBe(2);
      expect(card.unexplained).toBe(0);
      expect(card.gate.passed).toBe(true);
    },
  );

  it("fails the same candidate against a baseline that never cuts p3: that cut is unexplained", async () => {
    const counters = await makeTempDir("speedgate-starts-");
    const card = await playRound(BASELINE, [...FASTER, ...stopsInStart(join(counters, "candidate"), 0)], {
      bench: { runs: 2 },
      gate: TWO_RUNS_GATE,
    });
    expect(card.unexplained).toBe(1);
    expect(card.prompts.find((prompt) => prompt.id === "p3")?.runs[0]).toMatchObject({ status: "below_tolerance", match: "none" });
    expect(card.gate.passed).toBe(false);
    expect(card.gate.reasons).toContain(
      "1 of 12 answers (8.3%) are none the baseline gave (below tolerance: p3 run 1), while the baseline answered every prompt the " +
        "same way in every run, and above gate.maxUnexplained 0%",
    );
  });
});
