import { compareAnswers } from "./compare-answers.js";
import type { BaselineSelf } from "./explain-unscored-run.js";
import type { CompletedRequest, RequestRecord } from "./request-record.js";

/** Where two of the baseline's answers part, in tokens; null when one is the start of the other or they are equal. */
export function partsAt(a: CompletedRequest, b: CompletedRequest): number | null {
  const comparison = compareAnswers(a, b);
  if (comparison) return comparison.parted ? comparison.commonTokens : null;
  return a.outputTokens === b.outputTokens ? null : Math.min(a.outputTokens, b.outputTokens);
}

/** The baseline's answers to one prompt over the round's runs, those it completed. */
export function completedAnswers(records: ReadonlyArray<RequestRecord | null | undefined>): CompletedRequest[] {
  return records.filter((record): record is CompletedRequest => record?.ok === true);
}

/**
 * The baseline's least agreeing pair among its own answers to one prompt (see BaselineSelf); null
 * with fewer than two answers, since one answer says nothing about how it varies.
 */
export function measureBaselineSelf(records: ReadonlyArray<RequestRecord | null | undefined>): BaselineSelf | null {
  const answers = completedAnswers(records);
  let least: BaselineSelf | null = null;
  for (let i = 0; i < answers.length; i++) {
    for (let j = i + 1; j < answers.length; j++) {
      const a = answers[i] as CompletedRequest;
      const b = answers[j] as CompletedRequest;
      const k = Math.min(a.outputTokens, b.outputTokens);
      const at = partsAt(a, b);
      const pair = { agreedTokens: at === null ? k : Math.min(at, k), comparedTokens: k };
      const share = (self: BaselineSelf): number => (self.comparedTokens > 0 ? self.agreedTokens / self.comparedTokens : 1);
      if (least === null || share(pair) < share(least)) least = pair;
    }
  }
  return least;
}
