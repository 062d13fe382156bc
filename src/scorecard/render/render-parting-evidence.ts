import { escapeInline as escapeCell } from "../../safe-text/escape-engine-text.js";
import { renderFold } from "./render-key-value-table.js";
import type { PromptRun, Scorecard } from "../scorecard-schema.js";

/** Past this many, the runs are counted, not listed: the card's JSON keeps every one. */
const LISTED = 10;

function claims(run: PromptRun): string {
  const evidence = run.evidence;
  if (!evidence) return "";
  const side = (claimed: number | null, streamed: number | null): string => `${claimed ?? "—"} claimed, ${streamed ?? "—"} counted`;
  return (
    `; baseline ${side(evidence.baselineClaimed, run.baselineTokens)}, candidate ` +
    `${side(evidence.candidateClaimed, run.candidateTokens)}`
  );
}

function describeRun(id: string, index: number, runs: number, run: PromptRun): string {
  const where = runs > 1 ? `${escapeCell(id)} (run ${index + 1})` : escapeCell(id);
  const evidence = run.evidence;
  const parts = evidence?.partsAt ? `parts at token ${evidence.partsAt} of ${run.comparedTokens ?? "—"}` : run.status;
  const quotes =
    evidence?.baselineExcerpt && evidence.candidateExcerpt
      ? `: baseline ${escapeCell(evidence.baselineExcerpt)}, candidate ${escapeCell(evidence.candidateExcerpt)}`
      : "";
  return `- ${where}, ${run.status}: ${parts}${quotes}${claims(run)}`;
}

/**
 * A folded list of what each diverged or implausible run rests on (where the answers part, short
 * quotes of both, the counts each engine claimed beside those speedgate counted), so a reader can
 * check the status without the answers' text; the card's JSON keeps the same for every run. "" when
 * no run kept any.
 */
export function renderPartingEvidence(card: Pick<Scorecard, "prompts">): string {
  const lines: string[] = [];
  let total = 0;
  for (const prompt of card.prompts) {
    prompt.runs.forEach((run, index) => {
      if (!run.evidence) return;
      total++;
      if (lines.length < LISTED) lines.push(describeRun(prompt.id, index, prompt.runs.length, run));
    });
  }
  if (total === 0) return "";
  const more = total > LISTED ? `\n\n…and ${total - LISTED} more in scorecard.json.` : "";
  return renderFold(`Answers that part from the baseline's (${total})`, `${lines.join("\n")}${more}`);
}
