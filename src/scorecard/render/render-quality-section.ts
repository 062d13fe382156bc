import { escapeInline } from "../../safe-text/escape-engine-text.js";
import type { Scorecard } from "../scorecard-schema.js";
import { describeChangedQuestions, describeQualityRows } from "./describe-quality.js";
import { renderFold, renderKeyValueTable } from "./render-key-value-table.js";

/** The questions the engines answered differently, folded under their count; empty on a card without quality:. */
export function renderQualitySection(card: Scorecard): string {
  const changed = describeChangedQuestions(card);
  if (!changed) return "";
  return renderFold(changed.summary, changed.lines.map((line) => escapeInline(line)).join("\n\n"));
}

/**
 * The question set's rows on the first screen of a card with scenarios, where no summary table holds
 * them: the set was answered once per start, for every scenario. Empty without quality:.
 */
export function renderQualityLead(card: Scorecard): string {
  const rows = describeQualityRows(card);
  if (rows.length === 0) return "";
  return renderKeyValueTable(rows.map((row) => [row.label, `${row.mark} ${escapeInline(row.text)}`]));
}
