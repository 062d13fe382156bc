import { markdownTable } from "markdown-table";
import { formatMs, formatRunScores, formatTimes } from "./describe-card.js";
import { promptReason } from "./describe-integrity.js";
import { escapeInline } from "../../safe-text/escape-engine-text.js";
import { renderFold } from "./render-key-value-table.js";
import type { PromptResult, Scorecard } from "../scorecard-schema.js";

const STATUS_LABEL: Record<PromptResult["status"], string> = {
  scored: "scored",
  below_tolerance: "⚠️ below tolerance",
  zeroed: "❌ zeroed",
  excluded: "➖ excluded",
  diverged: "❌ diverged",
  implausible: "❌ implausible",
};

function side(prompt: PromptResult, pick: (s: NonNullable<PromptResult["baseline"]>) => string): string {
  const b = prompt.baseline ? pick(prompt.baseline) : "—";
  const c = prompt.candidate ? pick(prompt.candidate) : "—";
  return `${b} / ${c}`;
}

/**
 * The one outcome every prompt had, when every prompt ended the same way for the same reason (an
 * engine that failed before any prompt): one line then says what a table of identical rows would.
 * Null when the prompts differ, or when they were scored (their numbers differ).
 */
export function findSameOutcome(card: Scorecard): { status: PromptResult["status"]; score: string; reason: string } | null {
  const [first, ...rest] = card.prompts;
  if (!first || first.status === "scored" || rest.length === 0) return null;
  const reason = promptReason(first, card);
  if (rest.some((prompt) => prompt.status !== first.status || promptReason(prompt, card) !== reason)) return null;
  return { status: first.status, score: first.score === null ? "no score" : formatTimes(first.score), reason };
}

function sameForAll(card: Scorecard): string | null {
  const same = findSameOutcome(card);
  if (!same) return null;
  return (
    `All ${card.prompts.length} prompts: ${STATUS_LABEL[same.status]}, ` +
    `${same.score}${same.reason ? `: ${escapeInline(same.reason)}` : ""}. Each prompt's times are in scorecard.json.`
  );
}

/** Every prompt's status, score, tokens, times and reason, folded; `rows` bounds the table to fit GitHub's size limit. */
export function renderPromptsSection(card: Scorecard, rows: number): string {
  if (card.prompts.length === 0) return "";
  const summary = `Per-prompt results (${card.prompts.length} prompt${card.prompts.length === 1 ? "" : "s"})`;
  const same = sameForAll(card);
  if (same) return renderFold(summary, same);
  const shown = card.prompts.slice(0, rows);
  const manyRuns = card.runs.completed > 1;
  const firstRun = manyRuns ? ", run 1" : "";
  const table = markdownTable(
    [
      [
        "#",
        "Prompt",
        "Status",
        "Score",
        ...(manyRuns ? ["Run scores"] : []),
        `Tokens (base / cand${firstRun})`,
        `TTFT ms (base / cand${firstRun})`,
        `E2E ms (base / cand${firstRun})`,
        "Reason",
      ],
      ...shown.map((prompt, index) => [
        String(index + 1),
        escapeInline(prompt.id),
        STATUS_LABEL[prompt.status],
        prompt.score === null ? "—" : formatTimes(prompt.score),
        ...(manyRuns ? [formatRunScores(prompt)] : []),
        side(prompt, (s) => (s.outputTokens === null ? "—" : String(s.outputTokens))),
        side(prompt, (s) => formatMs(s.ttftMs)),
        side(prompt, (s) => formatMs(s.e2eMs)),
        escapeInline(promptReason(prompt, card)),
      ]),
    ],
    { alignDelimiters: false, align: ["r", "l", "l", "r", ...(manyRuns ? ["r"] : []), "r", "r", "r", "l"] },
  );
  const left = card.prompts.length - shown.length;
  const leftNote =
    left > 0
      ? `\n\n${left} more prompts are not shown here to fit GitHub's size limit; all ${card.prompts.length} are in scorecard.json.`
      : "";
  return renderFold(summary, `${table}${leftNote}`);
}
