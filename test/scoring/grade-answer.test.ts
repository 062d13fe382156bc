import { describe, expect, it } from "vitest";
import { findReferenceProblem, gradeAnswer, lastNumber, optionLetter } from "../../src/scoring/grade-answer.js";

describe("gradeAnswer: number (GSM8K's rule)", () => {
  const gsm8kReference = "Natalia sold 48/2 = <<48/2=24>>24 clips in May.\nNatalia sold 48+24 = <<48+24=72>>72 clips altogether.\n#### 72";

  it("holds the answer's last number to the reference's last number, so GSM8K's worked reference is used as it is", () => {
    expect(gradeAnswer("number", "She sold 24 in May, so 48 + 24 = 72. The answer is 72.", gsm8kReference)).toEqual({
      right: true,
      extracted: "72",
    });
    expect(gradeAnswer("number", "48 + 24 = 72, so she sold 73 in all", gsm8kReference).right).toBe(false);
  });

  it("compares numbers, not spellings: thousands separators, a trailing .0, a dollar sign", () => {
    expect(gradeAnswer("number", "The total is $1,234.", "1234").right).toBe(true);
    expect(gradeAnswer("number", "It comes to 1234.0 dollars", "#### 1,234").right).toBe(true);
    expect(gradeAnswer("number", "-5 degrees", "-5").right).toBe(true);
  });

  it("reads a list '3, 4' as two numbers, and finds no number in filler", () => {
    expect(lastNumber("between 3, 4")).toBe("4");
    expect(gradeAnswer("number", " engine engine engine engine", "72")).toEqual({ right: false, extracted: null });
  });
});

describe("gradeAnswer: choice (the option letter)", () => {
  it.each([
    ["The answer is (B).", "B"],
    ["Answer: C", "C"],
    ["B", "B"],
    ["(D)", "D"],
    ["A. Paris, since it is the capital", "A"],
    ["I think it could be (A) or perhaps (C)", "C"],
    ["ANSWER: D", "D"],
  ])("reads %j as %s", (text, letter) => {
    expect(optionLetter(text)).toBe(letter);
    expect(gradeAnswer("choice", text, `(${letter.toLowerCase()})`).right).toBe(true);
  });

  it("finds no letter in 'the answer is a number' or in prose without an option", () => {
    expect(optionLetter("the answer is a number")).toBeNull();
    expect(gradeAnswer("choice", "I am not sure about this one", "B")).toEqual({ right: false, extracted: null });
  });
});

describe("gradeAnswer: exact and regex", () => {
  it("exact: the trimmed answer is the trimmed reference, case and all", () => {
    expect(gradeAnswer("exact", "  Paris\n", "Paris").right).toBe(true);
    expect(gradeAnswer("exact", "paris", "Paris").right).toBe(false);
    expect(gradeAnswer("exact", "Paris, France", "Paris").right).toBe(false);
  });

  it("regex: the last match's first group (or the whole match) against the reference", () => {
    const scorer = { regex: "Final answer: (\\w+)" };
    expect(gradeAnswer(scorer, "Final answer: no. Final answer: yes", "yes")).toEqual({ right: true, extracted: "yes" });
    expect(gradeAnswer({ regex: "\\d{4}" }, "born 1912, died 1954", "1954").right).toBe(true);
    expect(gradeAnswer(scorer, "I give up", "yes")).toEqual({ right: false, extracted: null });
  });
});

describe("findReferenceProblem", () => {
  it("names a reference a number or choice scorer cannot grade", () => {
    expect(findReferenceProblem("number", "seventy-two")).toMatch(/with a number in it for quality.scorer number/);
    expect(findReferenceProblem("choice", "Paris")).toMatch(/one option letter/);
    expect(findReferenceProblem("number", "#### 72")).toBeNull();
    expect(findReferenceProblem("choice", "(b)")).toBeNull();
    expect(findReferenceProblem("exact", "anything")).toBeNull();
  });
});
