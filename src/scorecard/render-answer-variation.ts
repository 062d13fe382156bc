import { escapeInline as escapeCell } from "../safe-text/escape-engine-text.js";
import type { Scorecard } from "./scorecard-schema.js";

/** Past this many, the explained runs are counted, not listed. */
const LISTED = 10;

function describeZero(zero: NonNullable<Scorecard["answerVariation"]>["explained"][number]): string {
  const where = `${escapeCell(zero.id)} (run ${zero.run})`;
  if (zero.status === "below_tolerance") {
    return `${where}: the candidate answered ${zero.candidateTokens ?? "—"} tokens, the baseline itself ${zero.baselineMin}–${zero.baselineMax} over its runs`;
  }
  return `${where}: the answers part early, as the baseline's own did (at token ${(zero.baselinePartsAt ?? 0) + 1})`;
}

/**
 * One short section when the baseline answered some prompts differently in different runs (at
 * temperature 0 the requests batched with a prompt change the arithmetic): how often, and which of the
 * candidate's zeros lie within that variation, so they are not read as the patch's fault. "" when the
 * round had one run or the baseline never varied.
 */
export function renderAnswerVariation(card: Pick<Scorecard, "answerVariation">): string {
  const variation = card.answerVariation;
  if (!variation || variation.promptsVaried === 0) return "";
  const { explained } = variation;
  const lead =
    `${variation.promptsVaried} of ${variation.promptsCompared} prompts got a different answer from the unpatched baseline in different runs, at temperature 0: ` +
    "the requests batched with a prompt differ from run to run, and batching changes the arithmetic.";
  const zeros =
    explained.length === 0
      ? "No unscored prompt of the candidate lies within that variation."
      : `${explained.length} unscored prompt-run${explained.length === 1 ? " lies" : "s lie"} within it, so ${explained.length === 1 ? "it is" : "they are"} no evidence against the patch: ` +
        `${explained.slice(0, LISTED).map(describeZero).join("; ")}${explained.length > LISTED ? `; and ${explained.length - LISTED} more` : ""}.`;
  return `### The baseline's own answers vary\n\n${lead} ${zeros} \`speedgate calibrate\` measures how often the baseline disagrees with itself on this runner.`;
}
