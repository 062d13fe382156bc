import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Scorecard } from "../../src/scorecard/scorecard-schema.js";
import { regateScorecard } from "../../src/github/regate-scorecard.js";
import { TEST_TOKENIZER_PATH } from "../../harness/fixtures/tokenizer/generate-tokenizer.js";
import { runSimRound, simCommand, writeCliRound } from "../cli/support/sim-round.js";
import { makeTempDir } from "../support/make-temp-dir.js";
import { concatPatterns } from "../support/concat-patterns.js";

/*
 * The two ways through the agreement rules an attack review found at the shipped defaults (#38), played
 * end to end through `speedgate run` against the reference engine as a batching engine (30 prompts,
 * 4 runs, requests in flight together into a batch that costs more per stream), beside the honest
 * controls that must keep passing. Each cheat passed the gate before the rules below were changed.
 *   - Unique filler: on 14 of 30 prompts, 17 honest tokens then filler carrying a fresh random tag in
 *     every request, honest in one run of four; on the other 16 a stop at 92% (within the tolerance) in
 *     one run of four. A filler answer matches nothing, so a statistic that counts the answers of either
 *     side that the other side does not explain counts it under every shuffle of the labels (p = 0.5
 *     here), and the candidate's own varied answers switched the early-parting zero off. A 5% faster
 *     engine playing it scored 1.29× [1.06, 1.47] and passed; from token 2, 1.54× [1.02, 1.93].
 *   - A starved minority: 8 of 30 prompts get no decode step while the others decode. Every answer is
 *     exact; the median over prompts hid a quarter of the requests served at 0.36–0.71× (1.28×, passed).
 */

const PROMPTS = Array.from({ length: 30 }, (_, index) => `p${index + 1}`);
/** p2, p4, … p28: the two prompts the engine answers either of two ways (p14, p28) among them. */
const FILLER_PROMPTS = PROMPTS.filter((_, index) => index % 2 === 1 && index < 28);
const STOP_PROMPTS = PROMPTS.filter((id) => !FILLER_PROMPTS.includes(id));
/** p2, p6, … p30: spread over the run, as a scheduler's victims would be. */
const STARVED_PROMPTS = PROMPTS.filter((_, index) => index % 4 === 1);

/** 48 tokens at 10 ms each after a 40 ms first token, into a batch that costs 30% more per other stream. */
const BASELINE = ["--ttft-ms", "40", "--itl-ms", "10", "--output-tokens", "48", "--batch-cost", "0.3"];
/** 5% faster, the cheat's own real speedup. */
const SLIGHTLY_FASTER = ["--ttft-ms", "38", "--itl-ms", "9.5", "--output-tokens", "48", "--batch-cost", "0.3"];
/** 2.5× faster: the honest controls' margin over a loaded machine's stalls (see nondeterministic-engine.test.ts). */
const FASTER = ["--ttft-ms", "16", "--itl-ms", "4", "--output-tokens", "48", "--batch-cost", "0.3"];
/** The engine's own variation: 2 of the 30 prompts (p14, p28) answered either of two ways, a quarter of the way in. */
const RARELY_BISTABLE = ["--branch-every", "14", "--branch-at-fraction", "0.25", "--branch-probability", "0.5"];
/** Each seat draws its own continuations, as two processes of a real engine do. */
const SEED = { baseline: ["--seed", "21"], candidate: ["--seed", "22"] };

const BENCH = {
  maxTokens: 64,
  requestIntervalMs: 15,
  warmupRequests: 4,
  runs: 4,
  tokenizer: { path: TEST_TOKENIZER_PATH, from: "runner" as const },
};
/**
 * A batch that costs 10% more per other stream, requests 40 ms apart: the 30 arrive over 1.2 s, longer
 * than an answer takes, so while a starved stream waits there is nearly always another decoding, as on a
 * server under steady traffic.
 */
const STEADY = {
  engine: ["--ttft-ms", "40", "--itl-ms", "10", "--output-tokens", "48", "--batch-cost", "0.1"],
  bench: { requestIntervalMs: 40 },
};
/** The shipped gate: nothing set but the bar, as the app re-gates with it. */
const REPO_GATE = { minRoundScore: 1, maxUnscored: 0.1, minPrompts: 10 };

async function playRound(
  baseline: string[],
  candidate: string[],
  bench: Record<string, unknown> = {},
): Promise<Scorecard & { markdown: string }> {
  const counters = await makeTempDir("speedgate-starts-");
  const { dir, configPath } = await writeCliRound({
    baseline: { command: simCommand(...baseline, ...SEED.baseline, "--start-counter", join(counters, "baseline")) },
    candidate: { command: simCommand(...candidate, ...SEED.candidate, "--start-counter", join(counters, "candidate")) },
    bench: { ...BENCH, ...bench },
    gate: { minRoundScore: 1 },
    promptIds: PROMPTS,
  });
  const { card, out } = await runSimRound(configPath, dir);
  if (!card) throw new Error("no card");
  return { ...card, markdown: await readFile(join(out, "scorecard.md"), "utf8") };
}

/** The unique-filler cheat, its filler after `after` honest tokens. */
function uniqueFiller(after: string): string[] {
  return [
    "--cheat-unique-filler",
    "--cheat-filler-after",
    after,
    "--cheat-filler-prompts",
    FILLER_PROMPTS.join(","),
    // Honest in the first start of four.
    "--cheat-filler-on-starts",
    "1,2,3",
    // The other prompts stop at 92% (44 of 48 tokens, within the tolerance) in that same start, so every prompt's answers vary.
    "--stop-early",
    STOP_PROMPTS.join(","),
    "--stop-early-fraction",
    "0.92",
    "--stop-early-on-starts",
    "0",
  ];
}

describe("unique filler, honest in one run of four (speedgate run, a batching engine, 30 prompts, 4 runs)", () => {
  it("fails at the defaults on the candidate's own unexplained answers, though its filler buys it a higher score", async () => {
    const card = await playRound([...BASELINE, ...RARELY_BISTABLE], [...SLIGHTLY_FASTER, ...RARELY_BISTABLE, ...uniqueFiller("17")]);
    const fillerRuns = card.prompts.filter((prompt) => FILLER_PROMPTS.includes(prompt.id)).flatMap((prompt) => prompt.runs.slice(1));
    expect(fillerRuns).toHaveLength(42);
    expect(fillerRuns.every((run) => run.match === "none" && (run.agreedTokens ?? 0) >= 17)).toBe(true);
    // Leaving the batch early sped the rest up: the round scores well above the engine's own 5%.
    expect(card.roundScore).toBeGreaterThan(1.15);
    expect(card.gate.passed).toBe(false);
    // Both measures see it: shuffles rarely put so many odd answers on one side, and the baseline's own odd answers are far fewer.
    expect(card.unexplainedAnswers?.pValue).toBeLessThan(0.01);
    expect(card.gate.unexplainedDecision?.rule).toBe("shuffle");
    expect(card.gate.reasons).toContainEqual(
      expect.stringMatching(
        concatPatterns(
          /^5\d of 120 answers \([\d.]+%\) are none the baseline gave \(.*\), more than the engine's own answers show: shuffling /,
          /.*; and far more than the engine's own variation gives, at most \d+ of 120/,
        ),
      ),
    );
    expect(regateScorecard(card, REPO_GATE, null).gate.passed).toBe(false);
  });

  it("fails with the filler from token 2: early partings on prompts whose baseline never varies score 0", async () => {
    const card = await playRound([...BASELINE, ...RARELY_BISTABLE], [...SLIGHTLY_FASTER, ...RARELY_BISTABLE, ...uniqueFiller("1")]);
    const filler = card.prompts.filter((prompt) => FILLER_PROMPTS.includes(prompt.id));
    // Where the baseline varies (p14, p28), an early parting is timed up to there; everywhere else it is a zero.
    expect(filler.filter((prompt) => prompt.status === "diverged").map((prompt) => prompt.id)).toEqual(
      FILLER_PROMPTS.filter((id) => id !== "p14" && id !== "p28"),
    );
    expect(card.gate.passed).toBe(false);
    expect(card.gate.reasons).toContainEqual(expect.stringMatching(/^12 of 30 prompts \(40%\) were not scored \(12 diverged\)/));
    expect(regateScorecard(card, REPO_GATE, null).gate.passed).toBe(false);
  });

  it("passes the honest control: 2.5× faster, the same rare variation, every prompt scored", async () => {
    const card = await playRound([...BASELINE, ...RARELY_BISTABLE], [...FASTER, ...RARELY_BISTABLE]);
    expect(card.unscored).toBe(0);
    expect(card.gate.reasons).toEqual([]);
    expect(card.gate.passed).toBe(true);
    expect(regateScorecard(card, REPO_GATE, null).gate.passed).toBe(true);
  });
});

describe("a starved minority (speedgate run, a batching engine under steady traffic, 30 prompts, 4 runs)", () => {
  it("fails at the defaults, the starved prompts named on the first screen", async () => {
    const card = await playRound(STEADY.engine, [...STEADY.engine, "--cheat-starve", STARVED_PROMPTS.join(",")], STEADY.bench);
    // Every answer is the baseline's: no integrity rule has anything to say, and the median is the others' speed.
    expect(card.unscored).toBe(0);
    expect(card.medianAgreement).toBe(1);
    expect(card.roundScore).toBeGreaterThan(1.1);
    expect(card.gate.passed).toBe(false);
    const slow = card.prompts.filter((prompt) => (prompt.score ?? 1) < 0.8).map((prompt) => prompt.id);
    expect(slow.length).toBeGreaterThanOrEqual(4);
    expect(slow.every((id) => STARVED_PROMPTS.includes(id))).toBe(true);
    expect(card.gate.reasons).toContainEqual(
      expect.stringMatching(/^\d+ of 30 prompts \([\d.]+%\) scored below gate.regressionFloor 0.80×/),
    );
    // The first screen names them, slowest first, and says how much slower.
    const firstScreen = card.markdown.split("\n<details>")[0] ?? "";
    const slowest = card.prompts.filter((prompt) => slow.includes(prompt.id)).sort((a, b) => (a.score ?? 0) - (b.score ?? 0))[0];
    expect(firstScreen).toContain(
      `| Slower prompts | ${slow.length} of 30 prompts scored under 0.80×: ${slowest?.id ?? ""} ${(slowest?.score ?? 0).toFixed(2)}×`,
    );
    for (const id of slow) expect(firstScreen).toContain(`${id} `);
    expect(regateScorecard(card, REPO_GATE, null).gate.passed).toBe(false);
  });

  it("passes the honest control: 2.5× faster on every prompt, under the same traffic", async () => {
    const faster = ["--ttft-ms", "16", "--itl-ms", "4", "--output-tokens", "48", "--batch-cost", "0.1"];
    const card = await playRound(STEADY.engine, faster, STEADY.bench);
    expect(card.gate.reasons).toEqual([]);
    expect(card.gate.passed).toBe(true);
    expect(regateScorecard(card, REPO_GATE, null).gate.passed).toBe(true);
  });
});
