import { afterEach, describe, expect, it } from "vitest";
import type { Question } from "../../src/prompts/question.js";
import { gradeAnswer } from "../../src/scoring/grade-answer.js";
import {
  DEFAULT_QUESTION_MODEL,
  decideQuestionFates,
  finalAnswerText,
  referenceValue,
  wrongValue,
} from "../../src/sim-engine/sim-question-model.js";
import { type SimEngine, type SimEngineOptions, startSimEngine } from "../../src/sim-engine/start-sim-engine.js";

const ids = Array.from({ length: 400 }, (_, index) => `q${index + 1}`);
const count = (fates: Map<string, string>, fate: string): number => [...fates.values()].filter((value) => value === fate).length;

describe("decideQuestionFates", () => {
  it("answers a seeded share right, the same for every engine that shares the seed", () => {
    const fates = decideQuestionFates(ids, { ...DEFAULT_QUESTION_MODEL, accuracy: 0.8 });
    expect(count(fates, "right") / ids.length).toBeGreaterThan(0.74);
    expect(count(fates, "right") / ids.length).toBeLessThan(0.86);
    expect(decideQuestionFates(ids, { ...DEFAULT_QUESTION_MODEL, accuracy: 0.8 })).toEqual(fates);
    expect(decideQuestionFates(ids, { ...DEFAULT_QUESTION_MODEL, accuracy: 0.8, seed: 2 })).not.toEqual(fates);
  });

  it("a numerics change answers other questions right, exactly as many as before", () => {
    const before = decideQuestionFates(ids, DEFAULT_QUESTION_MODEL);
    const after = decideQuestionFates(ids, { ...DEFAULT_QUESTION_MODEL, numericsChange: 0.1 });
    expect(count(after, "right")).toBe(count(before, "right"));
    const changed = ids.filter((id) => before.get(id) !== after.get(id));
    expect(changed.length).toBe(2 * Math.round(0.1 * count(before, "right")));
  });

  it("a quality drop turns that share of the right answers wrong, and only those", () => {
    const before = decideQuestionFates(ids, DEFAULT_QUESTION_MODEL);
    const after = decideQuestionFates(ids, { ...DEFAULT_QUESTION_MODEL, qualityDrop: 0.05 });
    const lost = ids.filter((id) => before.get(id) === "right" && after.get(id) === "wrong");
    expect(lost.length).toBe(Math.round(0.05 * count(before, "right")));
    expect(ids.filter((id) => before.get(id) === "wrong" && after.get(id) === "right")).toEqual([]);
  });

  it("sets an unsteady share aside, which no change touches", () => {
    const fates = decideQuestionFates(ids, { ...DEFAULT_QUESTION_MODEL, unsteady: 0.1, qualityDrop: 0.5 });
    expect(count(fates, "unsteady") / ids.length).toBeGreaterThan(0.06);
    expect(count(fates, "unsteady") / ids.length).toBeLessThan(0.14);
  });
});

describe("the final answer", () => {
  const gsm8k: Question = { id: "q1", prompt: "How many clips?", answer: "48 + 24 = 72\n#### 72" };
  const choice: Question = { id: "q2", prompt: "Capital? (A) Rome (B) Paris", answer: "B" };

  it("names the reference's value when right and another of its kind when wrong, as the scorers read them", () => {
    expect(referenceValue(gsm8k.answer)).toBe("72");
    expect(wrongValue("72")).toBe("73");
    expect(wrongValue("D")).toBe("A");
    expect(gradeAnswer("number", `words${finalAnswerText(gsm8k, true)}`, gsm8k.answer).right).toBe(true);
    expect(gradeAnswer("number", `words${finalAnswerText(gsm8k, false)}`, gsm8k.answer).right).toBe(false);
    expect(gradeAnswer("choice", `words${finalAnswerText(choice, true)}`, choice.answer).right).toBe(true);
    expect(gradeAnswer("choice", `words${finalAnswerText(choice, false)}`, choice.answer).right).toBe(false);
  });
});

describe("the reference engine answering a question set", () => {
  const engines: SimEngine[] = [];
  const start = async (options: SimEngineOptions): Promise<SimEngine> => {
    const engine = await startSimEngine(options);
    engines.push(engine);
    return engine;
  };
  afterEach(async () => {
    await Promise.all(engines.splice(0).map((engine) => engine.close()));
  });
  const questions: Question[] = Array.from({ length: 20 }, (_, index) => ({
    id: `q${index + 1}`,
    messages: [{ role: "user", content: `What is ${index} + 1?` }],
    answer: String(index + 1),
  }));

  async function ask(engine: SimEngine, question: Question, maxTokens = 64): Promise<string> {
    const response = await fetch(`${engine.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messages: question.messages, max_tokens: maxTokens, temperature: 0 }),
    });
    const body = (await response.json()) as { choices: Array<{ message: { content: string } }> };
    return body.choices[0]?.message.content ?? "";
  }

  const profile = (extra: object = {}) => ({ defaults: { ttftMs: 0, itlMs: 0, outputTokens: 12 }, ...extra });

  it("answers each question in its words, ending in its final answer, right as the model decides", async () => {
    const engine = await start({ profile: profile(), questions, prompts: [], words: { content: [" a", " b", " c"], reasoning: [] } });
    const fates = decideQuestionFates(
      questions.map((question) => question.id),
      DEFAULT_QUESTION_MODEL,
    );
    for (const question of questions) {
      const answer = await ask(engine, question);
      expect(answer).toMatch(/^( [abc]){11} The answer is \d+\.$/);
      expect(gradeAnswer("number", answer, question.answer).right, question.id).toBe(fates.get(question.id) === "right");
    }
  });

  it("never reaches the final answer when cut by max_tokens or streaming filler, and keeps it through a numerics change", async () => {
    const right = questions.find((question) => decideQuestionFates([question.id], DEFAULT_QUESTION_MODEL).get(question.id) === "right");
    if (!right) throw new Error("no right question");
    const words = { content: [" a", " b", " c"], reasoning: [] };
    const honest = await start({ profile: profile(), questions: [right], prompts: [], words });
    expect(await ask(honest, right, 8)).not.toMatch(/answer/);
    const filler = await start({ profile: profile({ cheats: { fillerAfterTokens: 8 } }), questions: [right], prompts: [], words });
    expect(gradeAnswer("number", await ask(filler, right), right.answer).right).toBe(false);
    const numerics = await start({
      profile: profile({ answer: { divergeAfterFraction: 0.6 } }),
      questions: [right],
      prompts: [],
      words,
    });
    const parted = await ask(numerics, right);
    expect(parted.slice(0, 14)).toBe((await ask(honest, right)).slice(0, 14));
    expect(parted).not.toBe(await ask(honest, right));
    expect(gradeAnswer("number", parted, right.answer).right).toBe(true);
  });
});
