import { markdownTable } from "markdown-table";
import { escapeInline } from "../../safe-text/escape-engine-text.js";
import { describeScenarioScore } from "../assemble-scenario-card.js";
import type { ScenarioRow, ScenariosDescription } from "./describe-scenarios.js";
import { renderAnswerVariation } from "./render-answer-variation.js";
import { renderFold } from "./render-key-value-table.js";
import { renderScenarioMethod } from "./render-method-section.js";
import { renderPartingEvidence } from "./render-parting-evidence.js";
import { renderPromptsSection } from "./render-prompts-section.js";
import { describeQueueBound, renderQueueBoundNotice } from "./render-queue-bound-notice.js";
import { renderScoreChart } from "./render-score-chart.js";
import { renderSpeedSection } from "./render-speed-section.js";
import { renderSummaryTable } from "./render-summary-table.js";
import { describeSharedPrompts, findSharedPrompts } from "../../vocabulary/find-shared-prompts.js";

/**
 * How much of each scenario's own card its fold holds, from everything down to nothing: a card of 32
 * scenarios cannot hold 32 cards, so the folds give way before the round's shared sections do.
 * - `full`: the score table, the chart, the speed table, `promptRows` prompt rows and the counts;
 * - `brief`: the score table alone;
 * - `none`: no fold; the table of scenarios says the rest.
 */
export interface ScenarioDetail {
  level: "full" | "brief" | "none";
  charts: boolean;
  promptRows: number;
}

/** The first screen's table: one row a scenario, with its role and bar, its load, prompts, score, interval and verdict. */
export function renderScenarioTable(description: ScenariosDescription): string {
  return markdownTable(
    [
      ["Scenario", "Role", "Load", "Prompts", "Score", "Interval", "Verdict"],
      ...description.rows.map((row) => [
        `**${escapeInline(row.name)}**`,
        row.role,
        escapeInline(row.load),
        escapeInline(row.prompts),
        row.score,
        row.interval,
        `${row.mark} ${escapeInline(row.verdict)}`,
      ]),
    ],
    { alignDelimiters: false, align: ["l", "l", "l", "l", "r", "l", "l"] },
  );
}

/**
 * The scenarios whose requests waited in the queue for most of their time to first token, named on
 * the first screen: their score measures how the queue drains, which the table would not show. Each
 * one's fold says why and the setting that fixes it.
 */
export function renderScenarioQueueNotice(description: ScenariosDescription): string {
  const bound = description.rows.filter((row) => describeQueueBound(row.card) !== null).map((row) => escapeInline(row.name));
  if (bound.length === 0) return "";
  const which = bound.length === 1 ? `Scenario ${bound[0]} was` : `Scenarios ${bound.join(", ")} were`;
  const slots = description.rows.find((row) => row.card.settings.slotsChanged)?.card.settings.slotsChanged;
  if (slots) {
    return (
      `> [!NOTE]\n> **Queue-bound**: ${which} queue-bound, and the pull request changes the engine's parallel slots ` +
      `(${escapeInline(slots)}): draining that queue is what it speeds up, so ${bound.length === 1 ? "its" : "their"} score is its ` +
      `effect at that load, not noise. ${bound.length === 1 ? "Its section" : "Each one's section"} below says more.`
    );
  }
  return (
    `> [!WARNING]\n> **Queue-bound**: ${which} queue-bound: ${bound.length === 1 ? "its" : "their"} score measures how the queue ` +
    `drains, which a small change in speed swings widely, not the patch. ${bound.length === 1 ? "Its section" : "Each one's section"} ` +
    `below says why and the setting that fixes it.`
  );
}

/** The round's reasons that no row of the table shows (a scenario the repository requires and the card lacks), each in full. */
export function renderScenarioRoundReasons(description: ScenariosDescription): string {
  return description.roundReasons.map((reason) => `❌ **Not passed**: ${escapeInline(reason)}.`).join("\n\n");
}

/** Scenarios that sent the same prompts to one engine start: the later ones timed prompts the engine had cached. */
export function renderScenarioSharedPromptsNotice(description: ScenariosDescription): string {
  const note = describeSharedPrompts(
    findSharedPrompts(description.rows.map((row) => ({ name: escapeInline(row.name), promptsHash: row.card.provenance.promptsHash }))),
  );
  return note ? `> [!NOTE]\n> ${note.charAt(0).toUpperCase()}${note.slice(1)}.` : "";
}

/** A scenario that passed its own gate and failed the round's: its score table says it passes, so the card says why it does not. */
function roundGateLine(row: ScenarioRow): string {
  if (row.judgement.passed || !row.card.gate.passed || row.judgement.reason === null) return "";
  return `❌ **Not passed in this round**: ${escapeInline(row.judgement.reason.slice(row.name.length + 2))}.`;
}

function renderScenarioFold(row: ScenarioRow, detail: ScenarioDetail): string {
  const card = row.card;
  const summary = `${row.mark} ${escapeInline(row.name)} — ${describeScenarioScore(card)}`;
  const table = renderSummaryTable(card);
  const lead = [table === "" ? `No score: ${escapeInline(card.gate.reason)}` : table, roundGateLine(row), renderQueueBoundNotice(card)];
  const rest =
    detail.level === "full"
      ? [
          detail.charts ? renderScoreChart(card) : "",
          renderAnswerVariation(card),
          renderSpeedSection(card),
          renderPartingEvidence(card),
          renderPromptsSection(card, detail.promptRows),
          renderScenarioMethod(card),
        ]
      : [
          "Its speed table, per-prompt results and counts are left out to fit GitHub's size limit: scorecard.json has them under " +
            "`scenarios`.",
        ];
  return renderFold(summary, [...lead, ...rest].filter((part) => part !== "").join("\n\n"));
}

/** Each scenario's own card, folded under its name and score; with `none`, a line saying where they are. */
export function renderScenarioFolds(description: ScenariosDescription, detail: ScenarioDetail): string {
  if (detail.level === "none") {
    return "Each scenario's details are left out to fit GitHub's size limit: scorecard.json has them under `scenarios`.";
  }
  return description.rows.map((row) => renderScenarioFold(row, detail)).join("\n\n");
}
