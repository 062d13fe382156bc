import { type ExplainRules, isExplainedRun } from "./explain-unscored-run.js";
import { completedAnswers, measureBaselineSelf, partsAt } from "./measure-baseline-self.js";
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

/**
 * Which below-tolerance and diverged zeros the baseline's own variation explains, from a round of two
 * runs or more (with one run the baseline answered each prompt once, and nothing can be told), by
 * the rule the gate uses (isExplainedRun).
 */
export function findBaselineVariation(prompts: readonly ScoredPrompt[], rules: ExplainRules): BaselineVariation | null {
  let promptsCompared = 0;
  let promptsVaried = 0;
  const explained: ExplainedZero[] = [];
  for (const prompt of prompts) {
    const answers = completedAnswers(prompt.runs.map((run) => run.baselineRecord));
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
    // Held to every baseline answer (answerPrefixes), no run is zeroed for the engine's own variation: nothing to explain.
    if (prompt.answerPrefixes) continue;
    const self = measureBaselineSelf(answers);
    prompt.runs.forEach((run, index) => {
      if (run.status !== "below_tolerance" && run.status !== "diverged") return;
      if (isExplainedRun(run, lengths, self, rules)) {
        explained.push({
          id: prompt.id,
          run: index + 1,
          status: run.status,
          candidateTokens: run.candidateTokens,
          baselineMin,
          baselineMax,
          baselinePartsAt: firstParting,
        });
      }
    });
  }
  return promptsCompared === 0 ? null : { promptsCompared, promptsVaried, explained };
}
