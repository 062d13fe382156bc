import { formatBar } from "../../scoring/format-speedup.js";
import type { Scorecard } from "../scorecard-schema.js";

export const CHART_MAX_BARS = 60;
const CHART_WIDTH_PX = 800;
const CHART_HEIGHT_PX = 340;

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

/**
 * Colours in series order, and a chart as wide as a comment but shorter than Mermaid's default
 * (700 × 500), so that it fits the first screen under the score table. GitHub renders the init
 * directive; xychart has no legend, so the caption under the chart names the colours.
 */
function init(palette: string[]): string {
  return (
    `%%{init: {"xyChart": {"width": ${CHART_WIDTH_PX}, "height": ${CHART_HEIGHT_PX}}, "themeVariables": {"xyChart": ` +
    `{"plotColorPalette": "${palette.join(", ")}"}}}}%%`
  );
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

interface ChartPrompt {
  number: number;
  score: number;
  scored: boolean;
}

/** A chart and the sentence under it that says what its colours mean (xychart has no legend, and a long title is cut off). */
interface Chart {
  lines: string[];
  caption: string;
}

/** The line the gate draws and what must clear it, for the caption. */
function describeGateLine(card: Scorecard): string {
  const bar = card.gate.bar;
  const clears = card.gate.use === "interval-low" ? "the interval's low end" : "the round score";
  return bar === 1
    ? `Grey line: 1.00×, the gate, which ${clears} must clear.`
    : `Grey line: 1.00×; yellow line: the gate, ${formatBar(bar)}, which ${clears} must clear.`;
}

/**
 * One bar per prompt, numbered as in the prompts table, with lines at 1.0× and at the gate. A prompt
 * that was not scored counts as 0: it is a red stub under the 0 line, so that it neither vanishes nor
 * looks like a measured bar.
 */
function perPromptChart(card: Scorecard, counted: ChartPrompt[]): Chart {
  // The bar the gate compares with: minRoundScore, raised by the noise floor under noise-floor.
  const gate = card.gate.bar;
  const scores = counted.map((prompt) => Math.round(prompt.score * 1000) / 1000);
  const lines = gate === 1 ? [1] : [1, gate];
  const top = yMax([...scores, ...lines]);
  const anyUnscored = counted.some((prompt) => !prompt.scored);
  // Mermaid draws every bar up from the plot's bottom edge: with the axis starting a little under 0, an
  // unscored prompt's bar from there to 0 is visible, and a value under the axis draws nothing at all.
  const bottom = anyUnscored ? -Math.ceil(top * 5) / 100 : 0;
  const nothing = number(-Math.ceil(top * 2));
  const scoredBars = counted.map((prompt, index) => (prompt.scored ? number(scores[index] ?? 0) : nothing));
  const unscoredBars = counted.map((prompt) => (prompt.scored ? nothing : "0"));
  const palette = [BAR, ...(anyUnscored ? [BELOW_GATE] : []), PARITY_LINE, ...(gate === 1 ? [] : [GATE_LINE])];
  return {
    lines: [
      init(palette),
      "xychart-beta",
      `  title ${quote("Score per prompt")}`,
      `  x-axis "prompt # (as in the table)" ` +
        `[${counted.map((prompt, index) => quote(axisLabel(prompt.number, index, counted.length))).join(", ")}]`,
      `  y-axis "speedup ×" ${number(bottom)} --> ${top}`,
      `  bar [${scoredBars.join(", ")}]`,
      ...(anyUnscored ? [`  bar [${unscoredBars.join(", ")}]`] : []),
      ...lines.map((level) => `  line [${counted.map(() => number(level)).join(", ")}]`),
    ],
    caption:
      `Blue: each prompt's score (end-to-end speedup at equal ` +
      `length)${anyUnscored ? "; red, under the 0 line: not scored, counts as 0" : ""}. ${describeGateLine(card)}`,
  };
}

/**
 * Buckets by score past CHART_MAX_BARS prompts: exact zeros, then (0, 0.5), then edges that include
 * 1.0 and the gate, so no bucket straddles either, the bars coloured by which side of the gate they are.
 */
function histogramChart(card: Scorecard, scores: number[]): Chart {
  const gate = card.gate.bar;
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
  // Mermaid draws every bar up from the plot's bottom edge, so a 0 still shows as a sliver, and so
  // does a value just under the axis; one far under it draws nothing, which leaves each bucket in one
  // colour only and an empty bucket empty.
  const top = yMax([1, ...counts]);
  const none = -Math.ceil(top * 2);
  const below = counts.map((count, bucket) => (passes[bucket] || count === 0 ? none : count));
  const above = counts.map((count, bucket) => (passes[bucket] && count > 0 ? count : none));
  return {
    lines: [
      init([BELOW_GATE, AT_OR_ABOVE_GATE]),
      "xychart-beta",
      `  title ${quote("Prompts by score")}`,
      `  x-axis "score × (0: no score)" [${labels.map(quote).join(", ")}]`,
      `  y-axis "prompts" 0 --> ${top}`,
      `  bar [${below.join(", ")}]`,
      `  bar [${above.join(", ")}]`,
    ],
    caption:
      `${scores.length} prompts by score. Red: under the gate ${formatBar(gate)} (the 0 bucket: not scored, counts as 0); green: at or ` +
      `above it.`,
  };
}

/** The score chart and what its colours mean; none when nothing was scored, since a row of zeros says nothing the summary does not. */
export function renderScoreChart(card: Scorecard): string {
  if (card.promptsScored === 0) return "";
  const counted = card.prompts
    .map((prompt, index) => ({ number: index + 1, status: prompt.status, scored: prompt.status === "scored", score: prompt.score ?? 0 }))
    .filter((prompt) => prompt.status !== "excluded");
  const chart =
    counted.length <= CHART_MAX_BARS
      ? perPromptChart(card, counted)
      : histogramChart(
          card,
          counted.map((prompt) => prompt.score),
        );
  return [["```mermaid", ...chart.lines, "```"].join("\n"), `<sub>${chart.caption}</sub>`].join("\n\n");
}
