import type { QuestionOutcome } from "../../src/scoring/judge-quality.js";
import type { RequestRecord } from "../../src/scoring/request-record.js";
import type { RoundRun } from "../../src/scoring/score-round.js";
import { textStream } from "./make-text-records.js";

/** The words of the baseline's answer to prompt i: 40 of them, one a chunk. */
function words(prompt: number): string[] {
  return Array.from({ length: 40 }, (_, index) => ` w${prompt}-${index}`);
}

/**
 * A round of `prompts` prompts and `runs` runs where the candidate is 1.5× faster and, on every
 * `partEvery`-th prompt, parts from the baseline's answer after 28 of its 40 tokens (a numerics change)
 * into text that streams ten times faster still: timed at equal length it looks far faster than over
 * the tokens both share. The same records in every run.
 */
export function makePartingRound(options: { prompts?: number; runs?: number; partEvery?: number; cut?: number[] } = {}): {
  promptIds: string[];
  runs: RoundRun[];
} {
  const count = options.prompts ?? 12;
  const promptIds = Array.from({ length: count }, (_, index) => `p${String(index + 1).padStart(2, "0")}`);
  const baseline = new Map<string, RequestRecord>();
  const candidate = new Map<string, RequestRecord>();
  promptIds.forEach((id, index) => {
    const answer = words(index);
    baseline.set(id, textStream(answer, { ttftMs: 60, itlMs: 15 }));
    const parts = options.partEvery !== undefined && (index + 1) % options.partEvery === 0;
    if (options.cut?.includes(index)) {
      candidate.set(id, textStream(answer.slice(0, 10), { ttftMs: 40, itlMs: 10 }));
    } else if (parts) {
      const parted = [...answer.slice(0, 28), ...answer.slice(28).map((word) => word.replace(" w", " v"))];
      // The first 28 chunks at 1.5×, then the parted rest ten times faster again.
      const record = textStream(parted, { ttftMs: 40, itlMs: 10 });
      record.chunks = record.chunks.map((chunk, at) => (at < 28 ? chunk : { ...chunk, tMs: 40 + 27 * 10 + (at - 27) * 1 }));
      record.endMs = (record.chunks.at(-1)?.tMs ?? 0) + 1;
      candidate.set(id, record);
    } else {
      candidate.set(id, textStream(answer, { ttftMs: 40, itlMs: 10 }));
    }
  });
  const run: RoundRun = { baseline: { records: baseline, failure: null }, candidate: { records: candidate, failure: null } };
  return { promptIds, runs: Array.from({ length: options.runs ?? 2 }, () => run) };
}

/**
 * A question set's outcomes for `runs` runs: the baseline right on `right` of `total` questions in every
 * run; the candidate the same but for `lost` of those right ones (wrong in every run) and `gained` of the
 * wrong ones (right in every run).
 */
export function makeQuestionOutcomes(options: {
  total: number;
  right: number;
  lost?: number;
  gained?: number;
  runs?: number;
}): QuestionOutcome[] {
  const runs = options.runs ?? 2;
  const lost = options.lost ?? 0;
  const gained = options.gained ?? 0;
  return Array.from({ length: options.total }, (_, index) => {
    const baselineRight = index < options.right;
    const candidateRight = baselineRight ? index >= lost : index < options.right + gained;
    return {
      id: `q${String(index + 1).padStart(3, "0")}`,
      baseline: Array<boolean>(runs).fill(baselineRight),
      candidate: Array<boolean>(runs).fill(candidateRight),
    };
  });
}
