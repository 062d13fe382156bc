import { formatTimes } from "./describe-card.js";
import type { Scorecard } from "./scorecard-schema.js";

export const CHART_MAX_BARS = 60;

const BAR = "#0969da";
const BELOW_GATE = "#cf222e";
const AT_OR_ABOVE_GATE = "#1a7f37";
const PARITY_LINE = "#6e7781";
const GATE_LINE = "#bf8700";

function quote(label: string): string {
  return JSON.stringify(label.replace(/["\\\n\r]/g, ""));
}

function number(value: number): string {
  return String(Math.round(value * 1000) / 1000);
}

/** Colours in series order; GitHub renders the init directive, and xychart has no legend, so the title names them. */
function init(palette: string[]): string {
  return `%%{init: {"themeVariables": {"xyChart": {"plotColorPalette": "${palette.join(", ")}"}}}}%%`;
}

function yMax(values: number[]): number {
  return Math.ceil(Math.max(...values) * 1.1 * 100) / 100;
}

const LABEL_EVERY_PROMPT_UP_TO = 20;

/**
 * Past 20 bars two-digit numbers collide: only 1 and every fifth prompt is numbered. The others get
 * distinct invisible labels (Mermaid's axis merges equal labels into one bar).
 */
function axisLabel(number: number, index: number, count: number): string {
  if (count <= LABEL_EVERY_PROMPT_UP_TO || number === 1 || number % 5 === 0) return String(number);
  return "\u200b".repeat(index + 1);
}

/** One bar per prompt, numbered as in the prompts table, with lines at 1.0× and at the gate. */
function perPromptChart(card: Scorecard, counted: Array<{ number: number; score: number }>): string[] {
  const gate = card.gate.minRoundScore;
  const scores = counted.map((prompt) => Math.round(prompt.score * 1000) / 1000);
  const lines = gate === 1 ? [1] : [1, gate];
  const gateName = card.gate.use === "interval-low" ? "gate (on the interval's low end)" : "gate";
  const title = gate === 1 ? `Score per prompt; grey line: 1.00×, the ${gateName}` : `Score per prompt; grey line: 1.00×, yellow: ${gateName} ${formatTimes(gate)}`;
  return [
    init([BAR, PARITY_LINE, ...(gate === 1 ? [] : [GATE_LINE])]),
    "xychart-beta",
    `  title ${quote(title)}`,
    `  x-axis "prompt # (as in the table)" [${counted.map((prompt, index) => quote(axisLabel(prompt.number, index, counted.length))).join(", ")}]`,
    `  y-axis "speedup ×" 0 --> ${yMax([...scores, ...lines])}`,
    `  bar [${scores.map(number).join(", ")}]`,
    ...lines.map((level) => `  line [${counted.map(() => number(level)).join(", ")}]`),
  ];
}

/**
 * Buckets by score past CHART_MAX_BARS prompts: exact zeros, then (0, 0.5), then edges that include
 * 1.0 and the gate, so no bucket straddles either, the bars coloured by which side of the gate they are.
 */
function histogramChart(card: Scorecard, scores: number[]): string[] {
  const gate = card.gate.minRoundScore;
  const edges = [...new Set([0.5, 0.8, 0.9, 1, 1.1, 1.25, 1.5, 2, gate])].filter((edge) => edge > 0).sort((a, b) => a - b);
  const labels = ["0", `0–${edges[0]}`];
  for (let index = 0; index < edges.length; index++) {
    const edge = edges[index] as number;
    const next = edges[index + 1];
    labels.push(next === undefined ? `≥${edge}` : `${edge}–${next}`);
  }
  const counts = labels.map(() => 0);
  for (const score of scores) {
    let bucket = 0;
    if (score > 0) {
      bucket = 1;
      edges.forEach((edge, index) => {
        if (score >= edge) bucket = index + 2;
      });
    }
    counts[bucket] = (counts[bucket] ?? 0) + 1;
  }
  // A bucket passes when its lower edge is at or above the gate; "0" and "0–…" never do (the gate is above 0).
  const passes = labels.map((_, bucket) => bucket >= 2 && (edges[bucket - 2] as number) >= gate);
  // Mermaid draws every bar up from the plot's bottom edge, so a 0 still shows as a sliver; a value
  // under the axis draws nothing, which leaves each bucket in one colour only.
  const none = -1;
  const below = counts.map((count, bucket) => (passes[bucket] || count === 0 ? none : count));
  const above = counts.map((count, bucket) => (passes[bucket] && count > 0 ? count : none));
  const title = `Prompts by score (${scores.length}); green: at or above the gate ${formatTimes(gate)}`;
  return [
    init([BELOW_GATE, AT_OR_ABOVE_GATE]),
    "xychart-beta",
    `  title ${quote(title)}`,
    `  x-axis "score × (0: no score)" [${labels.map(quote).join(", ")}]`,
    `  y-axis "prompts" 0 --> ${yMax([1, ...counts])}`,
    `  bar [${below.join(", ")}]`,
    `  bar [${above.join(", ")}]`,
  ];
}

/** The score chart; none when nothing was scored, since a row of zeros says nothing the summary does not. */
export function renderScoreChart(card: Scorecard): string {
  if (card.promptsScored === 0) return "";
  const counted = card.prompts
    .map((prompt, index) => ({ number: index + 1, status: prompt.status, score: prompt.score ?? 0 }))
    .filter((prompt) => prompt.status !== "excluded");
  const lines = counted.length <= CHART_MAX_BARS ? perPromptChart(card, counted) : histogramChart(card, counted.map((prompt) => prompt.score));
  return ["```mermaid", ...lines, "```"].join("\n");
}
