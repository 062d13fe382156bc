import { escapeInline as escapeCell } from "../../safe-text/escape-engine-text.js";
import type { Scorecard } from "../scorecard-schema.js";

/** Past this many, the explained runs are counted, not listed. */
const LISTED = 10;

function describeZero(zero: NonNullable<Scorecard["answerVariation"]>["explained"][number]): string {
  const where = `${escapeCell(zero.id)} (run ${zero.run})`;
  if (zero.status === "below_tolerance") {
    return (
      `${where}: the candidate answered ${zero.candidateTokens ?? "—"} tokens, the baseline itself ` +
      `${zero.baselineMin}–${zero.baselineMax} over its runs`
    );
  }
  return `${where}: the answers part early, as the baseline's own did (at token ${(zero.baselinePartsAt ?? 0) + 1})`;
}

/** "; and 3 more" past the listed ones; "" when all were listed. */
function andMore(count: number): string {
  return count > LISTED ? `; and ${count - LISTED} more` : "";
}

/**
 * One short section when the baseline answered some prompts differently in different runs (at
 * temperature 0 the requests batched with a prompt change the arithmetic): how often, and which of the
 * candidate's zeros lie within that variation, so they are not read as the patch's fault. "" when the
 * round had one run or the baseline never varied.
 */
export function renderAnswerVariation(
  card: Pick<Scorecard, "answerVariation"> & Partial<Pick<Scorecard, "prompts" | "unexplainedAnswers">>,
): string {
  const variation = card.answerVariation;
  if (!variation || variation.promptsVaried === 0) return "";
  const { explained } = variation;
  const lead =
    `${variation.promptsVaried} of ${variation.promptsCompared} prompts got a different answer from the unpatched baseline in ` +
    `different runs, at temperature 0: ` +
    "the requests batched with a prompt differ from run to run, and batching changes the arithmetic.";
  const branched = describeBranches(card);
  const zeros =
    branched ??
    (explained.length === 0
      ? "No unscored prompt of the candidate lies within that variation."
      : `${explained.length} unscored prompt-run${explained.length === 1 ? " lies" : "s lie"} within it, so ` +
        `${explained.length === 1 ? "it is" : "they are"} no evidence against the patch: ` +
        `${explained.slice(0, LISTED).map(describeZero).join("; ")}${andMore(explained.length)}.`);
  return (
    `### The baseline's own answers vary\n\n${lead} ${zeros} \`speedgate calibrate\` measures how often the baseline disagrees with ` +
    `itself on this runner.`
  );
}

/**
 * For a card whose answers were held to every answer the baseline gave: which prompts the engine
 * itself answers more than one way, and how the candidate's answers on them were scored. Null for an
 * older card, which explains zeros instead.
 */
function describeBranches(card: Partial<Pick<Scorecard, "prompts" | "unexplainedAnswers">>): string | null {
  const prompts = card.prompts?.filter((prompt) => prompt.answerPrefixes) ?? [];
  if (prompts.length === 0) return null;
  const varied = prompts.filter((prompt) => (prompt.baselineAnswers ?? 0) >= 2);
  const listed = varied
    .slice(0, LISTED)
    .map((prompt) => `${escapeCell(prompt.id)} (${prompt.baselineAnswers} answers seen from the baseline)`)
    .join(", ");
  const runs = prompts.flatMap((prompt) => prompt.runs);
  const other = runs.filter((run) => run.match === "other").length;
  const none = runs.filter((run) => run.match === "none").length;
  const more = varied.length > LISTED ? ` and ${varied.length - LISTED} more` : "";
  const answers = card.unexplainedAnswers;
  const weighed =
    answers && none > 0
      ? ` The gate weighs those against shuffling which answers came from which engine: as many came up in ` +
        `${Math.round(answers.pValue * 1000) / 10}% of shuffles.`
      : "";
  return (
    `${listed ? `The engine answers ${listed}${more} more than one way. ` : ""}` +
    "Each candidate answer is held to every answer the baseline gave and timed against the one it follows: " +
    `${other} of ${runs.length} prompt-runs gave an answer the baseline gave in another run (scored as usual), ` +
    `${none} gave one no baseline answer explains (timed only up to where it parts or stops).${weighed}`
  );
}
