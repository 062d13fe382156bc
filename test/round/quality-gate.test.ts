import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { regateScorecard } from "../../src/github/regate-scorecard.js";
import { rescoreScenarioCard } from "../../src/scorecard/rescore-scenario-card.js";
import type { Scorecard } from "../../src/scorecard/scorecard-schema.js";
import { TEST_TOKENIZER_PATH } from "../../harness/fixtures/tokenizer/generate-tokenizer.js";
import { PROMPT_IDS, runSimRound, simCommand, writeCliRound } from "../cli/support/sim-round.js";
import { makeTempDir } from "../support/make-temp-dir.js";

/*
 * gate.answers: quality end to end (`speedgate run` against the reference engine, requests in flight
 * together, a question set of 60 or 100 arithmetic questions answered by both engines in every run): an honest
 * 1.25× engine whose numerics change parts a third of its answers late passes, and the card says its
 * answers changed while quality held; the same engine turning 5 points of its right answers wrong fails
 * on quality, naming the questions; a 1.25× engine streaming filler fails on quality even where the
 * agreement rules, switched off by gate.answers: quality, would have let late filler through. The app's
 * re-gate and a rescore of the card alone reach the same verdict.
 */

const BATCH = ["--batch-cost", "0.3"];
/** 20 ms a token, so that a loaded machine's overhead on each token moves a 1.25× ratio little. */
const BASELINE = ["--ttft-ms", "60", "--itl-ms", "20", "--output-tokens", "48", ...BATCH];
/** 1.25× faster: a fifth less time a token and to the first. */
const FASTER = ["--ttft-ms", "48", "--itl-ms", "16", "--output-tokens", "48", ...BATCH];
/**
 * What both engines answer the question set with: 9 tokens an answer, the last the final answer (a worked answer's is its end, past
 * the 8 tokens after which a filler cheat starts). The set's batch is what the round's time goes to: a batch of 16 streams at 30% more
 * a stream answers about 145 tokens a second.
 */
const QUESTION_FLAGS = ["--questions", "<questions>", "--question-answer-tokens", "9"];
/** A numerics change: every third answer parts after 60% of its tokens, and 5% of the right answers swap with as many wrong ones. */
const NUMERICS = ["--diverge-after-fraction", "0.6", "--diverge-every", "3", "--numerics-change", "0.05"];

const withTokenizer = { tokenizer: { path: TEST_TOKENIZER_PATH, from: "runner" as const } };
const BENCH = { maxTokens: 64, requestIntervalMs: 15, warmupRequests: 4, ...withTokenizer };

/** A question set of n sums, each with its reference answer. */
function questionSet(n: number): string {
  return Array.from({ length: n }, (_, index) =>
    JSON.stringify({
      id: `q${String(index + 1).padStart(3, "0")}`,
      messages: [{ role: "user", content: `What is ${index} + 7?` }],
      answer: String(index + 7),
    }),
  ).join("\n");
}

async function playQualityRound(
  baseline: string[],
  candidate: string[],
  extra: { runs?: number; gate?: Record<string, unknown>; questions?: number } = {},
): Promise<Scorecard> {
  const dir = await makeTempDir("speedgate-quality-round-");
  const questions = join(dir, "questions.jsonl");
  await writeFile(questions, questionSet(extra.questions ?? 60));
  // The engines read the same question set the round asks, by content, to know which question a request is.
  const engine = (flags: string[]): string[] =>
    simCommand(...flags, ...QUESTION_FLAGS).map((arg) => (arg === "<questions>" ? questions : arg));
  const { configPath } = await writeCliRound({
    dir,
    baseline: { command: engine(baseline) },
    candidate: { command: engine(candidate) },
    bench: { ...BENCH, runs: extra.runs ?? 4 },
    gate: { minRoundScore: 1, minPrompts: PROMPT_IDS.length, answers: "quality", ...extra.gate },
    extra: { quality: { questions: "questions.jsonl", scorer: "number", maxTokens: 32, concurrency: 16 } },
  });
  const { card } = await runSimRound(configPath, dir);
  if (!card) throw new Error("no card");
  return card;
}

/** The repository's gate for the app's re-gate: the defaults, with gate.answers: quality opted into. */
const REPO_GATE = { minRoundScore: 1, maxUnscored: 0.1, minPrompts: PROMPT_IDS.length, answers: "quality" as const };

describe("gate.answers: quality end to end (speedgate run, reference engine under concurrent load)", () => {
  it(
    "an honest 1.25× numerics change passes: its answers changed on a third of the prompts, timed at equal length, and quality " + "held",
    async () => {
      const card = await playQualityRound(BASELINE, [...FASTER, ...NUMERICS]);
      expect(card.quality?.questions).toHaveLength(60);
      expect(card.quality?.questions.every((question) => question.baseline.length === 4 && question.candidate.length === 4)).toBe(true);
      const judgement = card.quality?.judgement;
      // 5% of the right answers exchanged with as many wrong ones: other answers, the same accuracy.
      expect(judgement?.baselineRight).toBe(judgement?.candidateRight);
      expect(judgement?.baselineOnly.length).toBeGreaterThan(0);
      expect(judgement?.dropped).toBe(false);
      expect(judgement?.line).toMatch(
        /^accuracy (\d+)\/60 → \1\/60, 0\.0 points \[−\d+\.\d, \+\d+\.\d\]; \d+ questions answered differently .*: held$/,
      );
      // Every third prompt's answer is none the baseline gave, and is timed at the full length.
      const third = card.prompts[2];
      expect(third?.runs.every((run) => run.match === "none" && run.status === "scored")).toBe(true);
      expect(third?.runs[0]?.reason).toMatch(/timed at the full length, since the question set judges changed answers/);
      expect(card.unexplained).toBe(2);
      expect(card.gate.reasons).toEqual([]);
      expect(card.gate.passed).toBe(true);
      expect(card.timeSpent?.baseline.qualityMs).toBeGreaterThan(0);
      // The app's re-gate agrees where the repository opted in, and without the opt-in holds the answers to the agreement rules.
      expect(regateScorecard(card, REPO_GATE, null).gate.passed).toBe(true);
      const { answers: _optIn, ...speedOnly } = REPO_GATE;
      const regated = regateScorecard(card, speedOnly, null);
      expect(regated.gate.passed).toBe(false);
      expect(regated.gate.reasons.join("; ")).toMatch(/are none the baseline gave/);
    },
    // Four runs of two engine starts each, on a machine that may be loaded: more than the default limit.
    300_000,
  );

  it(
    "the same change turning 5 points of right answers wrong fails on quality, naming the questions, in the round, the re-gate and a " +
      "rescore",
    async () => {
      // Accuracy 80% of 100 questions: about 80 right, of which 6.25% (5 questions) turn wrong in every run; 5 of 5 is p = 1/32.
      const card = await playQualityRound(BASELINE, [...FASTER, ...NUMERICS.slice(0, 4), "--quality-drop", "0.0625"], {
        runs: 2,
        questions: 100,
      });
      const judgement = card.quality?.judgement;
      expect(judgement?.dropped).toBe(true);
      expect((judgement?.baselineRight ?? 0) - (judgement?.candidateRight ?? 0)).toBe(judgement?.baselineOnly.length);
      expect(judgement?.baselineOnly.length).toBeGreaterThanOrEqual(4);
      expect(card.gate.passed).toBe(false);
      const reason = card.gate.reasons.find((one) => one.startsWith("quality dropped: "));
      expect(reason).toContain(`the candidate got wrong ${judgement?.baselineOnly.join(", ")}`);
      // The speed rules alone would have passed it: the drop is the one reason.
      expect(card.gate.reasons).toEqual([reason]);
      const regated = regateScorecard(card, REPO_GATE, null);
      expect(regated.gate.passed).toBe(false);
      expect(regated.quality?.judgement).toEqual(judgement);
      expect(regated.gate.reasons).toEqual([reason]);
      expect(rescoreScenarioCard(card).gate.reasons).toEqual([reason]);
    },
  );

  it.each([
    ["8", "after token 8, where the first tokens part: diverged as well"],
    ["75%", "after 75% of each answer, which only the question set catches once gate.answers: quality turns the agreement rules off"],
  ])("a 1.25× engine streaming filler %s fails on quality (%s)", async (after) => {
    const card = await playQualityRound(BASELINE, [...FASTER, "--cheat-filler-after", after], { runs: 2 });
    const judgement = card.quality?.judgement;
    // Filler never reaches the final answer: every question the baseline got right, the candidate got wrong.
    expect(judgement?.candidateRight).toBe(0);
    expect(judgement?.dropped).toBe(true);
    expect(card.gate.passed).toBe(false);
    expect(card.gate.reasons.some((reason) => reason.startsWith("quality dropped: "))).toBe(true);
    expect(regateScorecard(card, REPO_GATE, null).gate.passed).toBe(false);
  });
});
