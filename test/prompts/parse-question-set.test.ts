import { describe, expect, it } from "vitest";
import { parseQuestionSet } from "../../src/prompts/parse-question-set.js";

describe("parseQuestionSet", () => {
  it("reads chat and completion questions with their reference answers; ids are given or q<line number>", () => {
    const text = [
      JSON.stringify({ id: "add-1", messages: [{ role: "user", content: "What is 2 + 3?" }], answer: "5" }),
      "",
      JSON.stringify({ prompt: "Q: What is 6 × 7?\nA:", answer: 42 }),
      JSON.stringify({ messages: [{ role: "user", content: "Capital of France? (A) Paris (B) Rome" }], answer: "A" }),
    ].join("\n");
    expect(parseQuestionSet(text, "questions.jsonl")).toEqual([
      { id: "add-1", messages: [{ role: "user", content: "What is 2 + 3?" }], answer: "5" },
      { id: "q3", prompt: "Q: What is 6 × 7?\nA:", answer: "42" },
      { id: "q4", messages: [{ role: "user", content: "Capital of France? (A) Paris (B) Rome" }], answer: "A" },
    ]);
  });

  it("takes GSM8K's reference as it is published (worked reasoning ending in #### N)", () => {
    const line = JSON.stringify({ prompt: "Natalia sold clips…", answer: "She sold 48/2 = 24 in May.\n#### 72" });
    expect(parseQuestionSet(line, "gsm8k.jsonl")[0]?.answer).toBe("She sold 48/2 = 24 in May.\n#### 72");
  });

  it("names every bad line: not JSON, no answer, both messages and prompt, a repeated id, a repeated question", () => {
    const text = [
      "{not json",
      JSON.stringify({ prompt: "no answer here" }),
      JSON.stringify({ prompt: "both", messages: [{ role: "user", content: "both" }], answer: "1" }),
      JSON.stringify({ id: "x", prompt: "first", answer: "1" }),
      JSON.stringify({ id: "x", prompt: "second", answer: "2" }),
      JSON.stringify({ prompt: "first", answer: "1" }),
    ].join("\n");
    expect(() => parseQuestionSet(text, "set.jsonl")).toThrow(
      new RegExp(
        [
          "line 1: expected a JSON object",
          "line 2: answer: expected the reference answer, a non-empty string or a number",
          'line 3: messages: expected exactly one of "messages" or "prompt"',
          'line 5: id "x" is already used on line 4',
          'line 6: question "q6" asks the same prompt as line 4',
        ]
          .map((part) => part.replace(/[()]/g, "\\$&"))
          .join("[\\s\\S]*"),
      ),
    );
  });

  it("refuses an empty file", () => {
    expect(() => parseQuestionSet("\n\n", "empty.jsonl")).toThrow("empty.jsonl: expected at least one question, got an empty file");
  });
});
