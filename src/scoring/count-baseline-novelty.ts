import { type AnswerPrefixes, isBaselineIndex, poolIndex, runsInPool } from "./pooled-answers.js";

/** How often the baseline gave an answer none of its other answers to the prompt explains. */
export interface BaselineNovelty {
  /** Baseline answers no other baseline answer to the same prompt is the start of (or equal to). */
  novel: number;
  /** Baseline answers that had another baseline answer to the prompt to be held to. */
  compared: number;
}

/**
 * The baseline held to itself, leaving one answer out: each of its answers to a prompt that it answered
 * in two runs or more is "novel" when none of its other answers to that prompt is its start. It is what
 * the unchanged engine does when held as the candidate is (to the baseline's answers of the other runs),
 * with one run fewer to be held to, so its rate is at least the rate an unchanged candidate would show:
 * the unexplained rule's measure of the engine's own variation in this round (judge-unexplained.ts).
 */
export function countBaselineNovelty(prompts: ReadonlyArray<{ prefixes: AnswerPrefixes }>): BaselineNovelty {
  let novel = 0;
  let compared = 0;
  for (const { prefixes } of prompts) {
    const runs = runsInPool(prefixes);
    const answered = Array.from({ length: runs }, (_, run) => poolIndex(runs, "baseline", run)).filter((index) => prefixes[index]);
    if (answered.length < 2) continue;
    for (const index of answered) {
      compared++;
      const starts = prefixes[index] ?? [];
      if (!starts.some((other) => other !== index && isBaselineIndex(runs, other) && prefixes[other])) novel++;
    }
  }
  return { novel, compared };
}
