import { describe, expect, it } from "vitest";
import { parseRoundConfig } from "../../src/config/load-round-config.js";
import { regateScorecard } from "../../src/github/regate-scorecard.js";
import { assembleScenarioCard } from "../../src/scorecard/assemble-scenario-card.js";
import { buildScorecard } from "../../src/scorecard/build-scorecard.js";
import { parseScorecard } from "../../src/scorecard/read-scorecard.js";
import { renderMarkdown } from "../../src/scorecard/render/render-markdown.js";
import { renderText } from "../../src/scorecard/render/render-text.js";
import { rescoreScenarioCard } from "../../src/scorecard/rescore-scenario-card.js";
import type { Scorecard } from "../../src/scorecard/scorecard-schema.js";
import type { QuestionOutcome } from "../../src/scoring/judge-quality.js";
import { scoreRound } from "../../src/scoring/score-round.js";
import { mergeScorecards } from "../../src/shard/merge-scorecards.js";
import { selectShard } from "../../src/shard/select-shard.js";
import { makePartingRound, makeQuestionOutcomes } from "../support/make-quality-round.js";

const config = parseRoundConfig({
  engine: "sglang",
  runtime: "docker",
  port: 30000,
  baseline: { image: "lmsysorg/sglang:v0.5.5" },
  bench: { prompts: "./prompts.jsonl", maxTokens: 64, requestIntervalMs: 50, contextLimit: 4096, tolerance: 0.9, runs: 2 },
  gate: { minRoundScore: 1.0, use: "round-score", answers: "quality" },
  quality: { questions: "./quality/gsm8k-test.jsonl" },
});

/** The card of a round whose candidate parts every third answer late, with the question set's outcomes, as runRound builds it. */
function qualityCard(questions: QuestionOutcome[], options: { promptIds?: readonly string[]; shard?: Scorecard["shard"] } = {}): Scorecard {
  const round = makePartingRound({ partEvery: 3 });
  const promptIds = options.promptIds ?? round.promptIds;
  const result = scoreRound({ promptIds, runs: round.runs, tolerance: 0.9, gate: config.gate, quality: questions });
  return buildScorecard({
    config,
    result,
    failure: null,
    now: new Date("2026-12-01T00:00:00Z"),
    shard: options.shard ?? null,
    quality: {
      questionsHash: "a".repeat(64),
      scorer: "number",
      maxTokens: 512,
      questions: questions.map(({ id, baseline, candidate }) => ({ id, baseline: [...baseline], candidate: [...candidate] })),
    },
  });
}

const HELD = makeQuestionOutcomes({ total: 200, right: 160, lost: 4, gained: 3 });
const DROPPED = makeQuestionOutcomes({ total: 200, right: 160, lost: 12, gained: 1 });
const REPO_GATE = { minRoundScore: 1, use: "round-score" as const, maxUnscored: 0.1, minPrompts: 10, answers: "quality" as const };

describe("a card with a quality set", () => {
  it("keeps each question's right or wrong per engine and run, and reads back as it was written", () => {
    const card = qualityCard(HELD);
    expect(card.quality?.questions[0]).toEqual({ id: "q001", baseline: [true, true], candidate: [false, false] });
    expect(card.quality?.judgement?.line).toBe(
      "accuracy 160/200 → 159/200, −0.5 points [−3.5, +2.4]; 7 questions answered differently (4 for the baseline, 3 for the " +
        "candidate): held",
    );
    expect(card.gate).toMatchObject({ passed: true, answers: "quality" });
    expect(parseScorecard(JSON.parse(JSON.stringify(card)), "scorecard.json")).toEqual(card);
  });

  it("gives the same quality verdict when the app re-gates it, when it is rescored, and when its shards are merged", () => {
    for (const questions of [HELD, DROPPED]) {
      const card = qualityCard(questions);
      const expected = { passed: card.gate.passed, reasons: card.gate.reasons };
      expect(regateScorecard(card, REPO_GATE, null).gate).toMatchObject(expected);
      expect(rescoreScenarioCard(card).gate).toMatchObject(expected);
      expect(rescoreScenarioCard(card).quality).toEqual(card.quality);
      const ids = makePartingRound().promptIds.map((id) => ({ id }));
      const shards = [1, 2].map((index) => {
        const shard = { index, count: 2 };
        const asked = new Set(selectShard(questions, shard).map((question) => question.id));
        return qualityCard(
          questions.filter((question) => asked.has(question.id)),
          { promptIds: selectShard(ids, shard).map((prompt) => prompt.id), shard },
        );
      });
      const merged = mergeScorecards(shards);
      expect(merged.gate).toMatchObject(expected);
      expect(merged.quality?.judgement).toEqual(card.quality?.judgement);
    }
    expect(qualityCard(DROPPED).gate.reasons[0]).toMatch(/^quality dropped: /);
  });

  it("never reads its own verdict back: a card claiming quality held over questions that show a drop fails", () => {
    const card = qualityCard(DROPPED);
    const forged: Scorecard = {
      ...card,
      gate: { ...card.gate, passed: true, reasons: [], reason: "passes" },
      quality: card.quality && {
        ...card.quality,
        judgement: card.quality.judgement && { ...card.quality.judgement, dropped: false, reason: null, baselineOnly: [] },
      },
    };
    const regated = regateScorecard(forged, REPO_GATE, null);
    expect(regated.gate.passed).toBe(false);
    expect(regated.quality?.judgement?.dropped).toBe(true);
  });

  it("answers changed but the repository never opted in: the app's re-gate holds them to the agreement rules", () => {
    const { answers: _optIn, ...speed } = REPO_GATE;
    const regated = regateScorecard(qualityCard(HELD), speed, null);
    expect(regated.gate.passed).toBe(false);
    expect(regated.gate.reasons.join("; ")).toMatch(/are none the baseline gave/);
    // Timed only over the shared tokens again, as without a question set.
    expect(regated.prompts[2]?.runs[0]?.reason).not.toMatch(/timed at the full length/);
  });

  it("shows the Quality row and the Answers row on the first screen, and the changed questions folded, by id only", () => {
    const markdown = renderMarkdown(qualityCard(HELD));
    expect(markdown).toContain(
      "| Quality | ✅ accuracy 160/200 → 159/200, −0.5 points &#91;−3.5, +2.4]; 7 questions answered differently (4 for the " +
        "baseline, 3 for the candidate): held |",
    );
    expect(markdown).toContain("| Answers | ✅ answers changed on 4 prompts; quality held");
    expect(markdown).toContain("<details><summary>Questions answered differently (7 of 200)</summary>");
    expect(markdown).toContain("Right for the baseline only (4): q001, q002, q003, q004");
    const dropped = renderMarkdown(qualityCard(DROPPED));
    expect(dropped).toContain("| Quality | ❌ accuracy 160/200 → 149/200");
    expect(dropped).toMatch(/\| What now \| .*Find why the candidate gets 12 questions wrong that the baseline gets right/);
    expect(renderText(qualityCard(DROPPED))).toMatch(/Quality +accuracy 160\/200 → 149\/200/);
  });

  it("in a round with scenarios, judges the set in every scenario it was answered for and shows it once, under the scenario table", () => {
    const scenario = (name: string) => {
      const { scenarios: _none, ...one } = qualityCard(DROPPED);
      return { name, card: one };
    };
    const card = assembleScenarioCard([scenario("chat"), scenario("decode")], null);
    expect(card.gate.passed).toBe(false);
    expect(card.gate.reasons.every((reason) => /^(chat|decode): quality dropped: /.test(reason))).toBe(true);
    const markdown = renderMarkdown(card);
    expect(markdown.match(/\| Quality \| ❌ accuracy 160\/200 → 149\/200/g)).toHaveLength(1 + 2);
    expect(rescoreScenarioCard(card).gate.reasons).toEqual(card.gate.reasons);
  });
});
