import { markdownTable } from "markdown-table";
import { describeTimeSpent } from "./describe-time-spent.js";
import type { Scorecard } from "../scorecard-schema.js";

/**
 * Where the round's time went, for the method section: each engine's starts, warm-up, benchmark and
 * stops, and the round's whole with the starts' share of it. Empty on a card that did not record it
 * (older cards, merged shards).
 */
export function renderTimeSpent(card: Pick<Scorecard, "timeSpent">): string {
  if (!card.timeSpent) return "";
  const { rows, sentence } = describeTimeSpent(card.timeSpent);
  const table = markdownTable(rows, { alignDelimiters: false, align: ["l", ...(rows[0] ?? []).slice(1).map(() => "r")] });
  return `**Where the time went**\n\n${table}\n\n${sentence}`;
}
