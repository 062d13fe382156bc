import { z } from "zod";
import { integerIn, nonEmptyString } from "./config-field-kinds.js";

const scorerExpectation = 'expected "number", "choice", "exact" or { regex: "a pattern whose first group is the answer" }';

/** A regular expression as the regex scorer takes it: one that compiles. */
const patternSchema = z.string({ error: scorerExpectation }).refine(
  (pattern) => {
    try {
      new RegExp(pattern, "g");
      return true;
    } catch {
      return false;
    }
  },
  { error: 'expected a regular expression that compiles, such as "Final answer: (\\\\S+)"' },
);

/** How an answer is held to its reference (src/scoring/grade-answer.ts). */
export const qualityScorerSchema = z.union(
  [
    z.enum(["number", "choice", "exact"], { error: scorerExpectation }),
    z.strictObject({ regex: patternSchema }, { error: scorerExpectation }),
  ],
  { error: scorerExpectation },
);

/*
 * `quality:` a question set with reference answers that both engines answer in the engine starts they
 * already have, after the bench's workloads, so the gate can judge a change of answers by whether it
 * answers worse (gate.quality, gate.answers). The file stays on the runner, like a private prompt set:
 * the card keeps each question's id and whether each engine got it right, never its text or reference.
 */
export const qualitySchema = z.strictObject(
  {
    questions: nonEmptyString("expected the path of a JSONL question set, each line { messages or prompt, answer }"),
    scorer: qualityScorerSchema.default("number"),
    // Its own limit: a worked arithmetic answer needs room, whatever the bench's prompts ask.
    maxTokens: integerIn(1, 1_000_000, "expected a whole number of tokens from 1 to 1000000").default(512),
    // Questions in flight together (a closed loop); not timed, so only how long the set takes depends on it.
    concurrency: integerIn(1, 100_000, "expected a whole number of requests in flight from 1 to 100000").default(16),
  },
  { error: "expected an object such as { questions: quality/gsm8k-test.jsonl, scorer: number, maxTokens: 512 }" },
);

export type QualitySettings = z.infer<typeof qualitySchema>;
