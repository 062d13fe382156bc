import { compareAnswers } from "./compare-answers.js";
import type { CompletedRequest } from "./request-record.js";
import type { ScoredPrompt } from "./score-round.js";

/** An unscored prompt-run that the baseline's own answers, in its other runs, differ from each other as much as. */
export interface ExplainedZero {
  id: string;
  /** 1-based run. */
  run: number;
  status: "below_tolerance" | "diverged";
  candidateTokens: number | null;
  /** The baseline's shortest and longest answer to the prompt over the round's runs. */
  baselineMin: number;
  baselineMax: number;
  /** Where the baseline's own answers first part, in tokens; null when they never part. */
  baselinePartsAt: number | null;
}

/**
 * How much the baseline disagrees with itself: the same prompt, sent in each run at temperature 0, can
 * get other answers from the same engine when the requests in flight with it differ (batching changes
 * the arithmetic; llama.cpp's tiny model answered 94 tokens alone and 79 batched).
 */
export interface BaselineVariation {
  /** Prompts the baseline answered in two runs or more. */
  promptsCompared: number;
  /** Of those, the ones it answered differently in some run. */
  promptsVaried: number;
  /** Unscored candidate runs within that variation: not evidence against the patch. */
  explained: ExplainedZero[];
}

/** Where two of the baseline's answers part, in tokens; null when one is the start of the other or they are equal. */
function partsAt(a: CompletedRequest, b: CompletedRequest): number | null {
  const comparison = compareAnswers(a, b);
  if (comparison) return comparison.parted ? comparison.commonTokens : null;
  return a.outputTokens === b.outputTokens ? null : Math.min(a.outputTokens, b.outputTokens);
}

/**
 * Which below-tolerance and diverged zeros the baseline's own variation explains, from a round of two
 * runs or more (with one run the baseline answered each prompt once, and nothing can be told). A zero
 * is explained when the baseline, against itself, would have scored it the same way: its own answers
 * to the prompt range from under `tolerance` of its longest up to at least the candidate's length
 * (below_tolerance), or part within the first `agreementTokens` (diverged).
 */
export function findBaselineVariation(prompts: readonly ScoredPrompt[], tolerance: number, agreementTokens: number): BaselineVariation | null {
  let promptsCompared = 0;
  let promptsVaried = 0;
  const explained: ExplainedZero[] = [];
  for (const prompt of prompts) {
    const answers = prompt.runs.map((run) => run.baselineRecord).filter((record): record is CompletedRequest => record?.ok === true);
    if (answers.length < 2) continue;
    promptsCompared++;
    const lengths = answers.map((answer) => answer.outputTokens);
    const baselineMin = Math.min(...lengths);
    const baselineMax = Math.max(...lengths);
    let firstParting: number | null = null;
    for (let i = 0; i < answers.length; i++) {
      for (let j = i + 1; j < answers.length; j++) {
        const at = partsAt(answers[i] as CompletedRequest, answers[j] as CompletedRequest);
        if (at !== null) firstParting = firstParting === null ? at : Math.min(firstParting, at);
      }
    }
    if (firstParting === null && baselineMin === baselineMax) continue;
    promptsVaried++;
    prompt.runs.forEach((run, index) => {
      if (run.status !== "below_tolerance" && run.status !== "diverged") return;
      const candidateTokens = run.candidateTokens;
      const shortAsBaseline = run.status === "below_tolerance" && baselineMin < tolerance * baselineMax && candidateTokens !== null && candidateTokens >= baselineMin;
      const partsAsEarly = run.status === "diverged" && firstParting !== null && firstParting < Math.max(1, agreementTokens);
      if (shortAsBaseline || partsAsEarly) {
        explained.push({ id: prompt.id, run: index + 1, status: run.status, candidateTokens, baselineMin, baselineMax, baselinePartsAt: firstParting });
      }
    });
  }
  return promptsCompared === 0 ? null : { promptsCompared, promptsVaried, explained };
}
