/**
 * How an answer to a quality question is held to its reference:
 * - `number`: the last number in the answer equals the last number in the reference (GSM8K's rule; its
 *   reference ends "#### 72"), compared as numbers, so "1,234", "1234" and "1234.0" are one answer;
 * - `choice`: the option letter the answer gives ("The answer is (B)", "B", "B. Paris") equals the reference letter;
 * - `exact`: the answer, trimmed, is the reference, trimmed;
 * - `{ regex }`: the pattern's last match in the answer (its first group, if it has one), trimmed, is the reference, trimmed.
 */
export type QualityScorer = "number" | "choice" | "exact" | { regex: string };

export const QUALITY_SCORERS = ["number", "choice", "exact", "regex"] as const;

export interface GradedAnswer {
  right: boolean;
  /** What the scorer read from the answer (the number, the letter, the match); null when it found nothing to read. */
  extracted: string | null;
}

// A thousands separator only between groups of three digits, so a list "3, 4" is two numbers.
const NUMBER = /-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?/g;

/** The last number in a text, as written (commas dropped); null when it has none. */
export function lastNumber(text: string): string | null {
  const matches = text.match(NUMBER);
  const last = matches?.at(-1);
  return last === undefined ? null : last.replace(/,/g, "");
}

function sameNumber(a: string, b: string): boolean {
  const x = Number(a);
  const y = Number(b);
  if (!Number.isFinite(x) || !Number.isFinite(y)) return a === b;
  return Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(y));
}

// "answer" in any case, the letter in capitals: "the answer is a number" gives no letter.
const ANSWER_IS = /(?:[Aa]nswer|ANSWER)(?:\s+is)?\s*[:：]?\s*\(?([A-Z])\)?(?![A-Za-z])/g;

/**
 * The option letter an answer gives: after "answer is" or "answer:" (the last such), else an answer that
 * is only a letter ("B", "(B)", "B."), else one that starts with it ("B. Paris", "(B) Paris"), else the
 * last "(B)" in it. Null when none of these is there.
 */
export function optionLetter(text: string): string | null {
  const said = [...text.matchAll(ANSWER_IS)].at(-1)?.[1];
  if (said) return said.toUpperCase();
  const trimmed = text.trim();
  const alone = /^\(?([A-Z])\)?[.:]?$/.exec(trimmed)?.[1] ?? /^\(?([A-Z])[).:]\s/.exec(trimmed)?.[1];
  if (alone) return alone;
  return [...trimmed.matchAll(/\(([A-Z])\)/g)].at(-1)?.[1] ?? null;
}

/** The reference letter of a choice question ("B", "(b)"); null when the reference is no single letter. */
export function referenceLetter(reference: string): string | null {
  return /^\(?([A-Za-z])\)?$/.exec(reference.trim())?.[1]?.toUpperCase() ?? null;
}

function regexMatch(pattern: string, text: string): string | null {
  const last = [...text.matchAll(new RegExp(pattern, "g"))].at(-1);
  if (!last) return null;
  return (last.length > 1 ? (last[1] ?? "") : last[0]).trim();
}

/** Whether the answer is right by the scorer, and what the scorer read from it. */
export function gradeAnswer(scorer: QualityScorer, answer: string, reference: string): GradedAnswer {
  if (typeof scorer === "object") {
    const extracted = regexMatch(scorer.regex, answer);
    return { right: extracted !== null && extracted === reference.trim(), extracted };
  }
  switch (scorer) {
    case "number": {
      const extracted = lastNumber(answer);
      const expected = lastNumber(reference);
      return { right: extracted !== null && expected !== null && sameNumber(extracted, expected), extracted };
    }
    case "choice": {
      const extracted = optionLetter(answer);
      return { right: extracted !== null && extracted === referenceLetter(reference), extracted };
    }
    case "exact": {
      const extracted = answer.trim();
      return { right: extracted === reference.trim(), extracted };
    }
  }
}

const shown = (reference: string): string => JSON.stringify(reference.slice(0, 60));

/**
 * Why a reference cannot be graded by the scorer (a number scorer's reference without a number, a choice
 * without a single letter), for the question set's loading; null when it can.
 */
export function findReferenceProblem(scorer: QualityScorer, reference: string): string | null {
  if (scorer === "number" && lastNumber(reference) === null)
    return `expected a reference answer with a number in it for quality.scorer number, got ${shown(reference)}`;
  if (scorer === "choice" && referenceLetter(reference) === null)
    return `expected a reference answer that is one option letter (such as "B") for quality.scorer choice, got ${shown(reference)}`;
  return null;
}
