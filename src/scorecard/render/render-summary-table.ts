import { describeGate, describeInconclusive, describeNextStep, describePromptCounts, describeScore } from "./describe-summary.js";
import { escapeInline } from "../../safe-text/escape-engine-text.js";
import { renderKeyValueTable } from "./render-key-value-table.js";
import { renderSpeedLead } from "./render-speed-section.js";
import { describeQualityRows } from "./describe-quality.js";
import type { Scorecard } from "../scorecard-schema.js";

/**
 * The first screen of a scored card: the score with its interval and what it rests on, how many
 * prompts counted (only the counts that are not zero), where the speed came from in one line, the
 * gate with its reasons, and what would change a verdict that did not pass. Empty without a score:
 * such a card leads with its failure instead.
 */
export function renderSummaryTable(card: Scorecard): string {
  const score = describeScore(card);
  if (!score) return "";
  const rows = [
    ["Round score", `**${score.score}** ${escapeInline(score.rest)}`],
    ["Prompts", escapeInline(describePromptCounts(card))],
  ];
  const speed = renderSpeedLead(card);
  if (speed !== "") rows.push(["Speed", speed]);
  for (const row of describeQualityRows(card)) rows.push([row.label, `${row.mark} ${escapeInline(row.text)}`]);
  const gate = describeGate(card);
  rows.push(["Gate", `${gate.mark} ${escapeInline(gate.text)}`]);
  const next = describeNextStep(card);
  if (next) rows.push(["What now", escapeInline(next)]);
  const inconclusive = describeInconclusive(card);
  if (inconclusive)
    rows.push(["For the author", escapeInline(inconclusive.author)], ["For maintainers", escapeInline(inconclusive.maintainers)]);
  return renderKeyValueTable(rows);
}
