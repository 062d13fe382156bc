import { markdownTable } from "markdown-table";
import type { LatencyMetric, Percentiles, RoundMetrics } from "../../metrics/metrics-schema.js";
import { formatMs } from "./describe-card.js";
import { renderEngineTimes } from "./render-engine-times.js";
import { renderFold } from "./render-key-value-table.js";
import type { Scorecard } from "../scorecard-schema.js";

const LATENCY_ROWS: Array<{ metric: LatencyMetric; label: string }> = [
  // From the send to the first token: queueing included, so it is not the engine's prompt processing alone.
  { metric: "ttftMs", label: "TTFT ms (first token, incl. queueing)" },
  { metric: "tpotMs", label: "TPOT ms (decode)" },
  { metric: "itlMs", label: "ITL ms (decode)" },
  { metric: "e2eMs", label: "E2E ms at k" },
];

export function formatRate(value: number | null): string {
  if (value === null) return "—";
  return value >= 100 ? Math.round(value).toLocaleString("en-US") : value >= 1 ? value.toFixed(1) : value.toFixed(3);
}

export function formatRatio(value: number | null): string {
  return value === null ? "—" : `${value.toFixed(2)}×`;
}

function triple(values: Percentiles, format: (value: number | null) => string): string {
  return `${format(values.median)} / ${format(values.p90)} / ${format(values.p99)}`;
}

/** "23% less time", "12% more time" or "unchanged" (within 1%), for a candidate ÷ baseline ratio of times. */
export function describeTimeChange(ratio: number | null): string {
  if (ratio === null) return "not comparable";
  const change = Math.round(Math.abs(1 - ratio) * 100);
  if (change < 1) return "unchanged";
  return `${change}% ${ratio < 1 ? "less" : "more"} time`;
}

function phase(name: string, metric: LatencyMetric, label: string, metrics: RoundMetrics, per = ""): { name: string; change: string } {
  const before = metrics.baseline[metric].median;
  const after = metrics.candidate[metric].median;
  // TPOT needs a second token: a prompt-processing round (answers of one token) has no decode to compare.
  if (metric === "tpotMs" && before === null && after === null)
    return { name, change: "not measured (no answer compared beyond its first token)" };
  const change = describeTimeChange(metrics.ratio[metric].median);
  const unit = per !== "" && change.endsWith(" time") ? ` ${per}` : "";
  return { name, change: `${change}${unit} (median ${label} ${formatMs(before)} → ${formatMs(after)} ms)` };
}

/**
 * Where the speed came from in one line, for the first screen: how the first token (TTFT: queueing and
 * prefill, as the client sees it) and decode (TPOT) changed. Empty when nothing was scored. Plain text,
 * with `bold` marking the phases' names for Markdown.
 */
export function describeSpeedLead(card: Scorecard, bold: (name: string) => string = (name) => name): string {
  const metrics = card.metrics;
  if (!metrics) return "";
  return [phase("First token", "ttftMs", "TTFT", metrics), phase("Decode", "tpotMs", "TPOT", metrics, "per token")]
    .map(({ name, change }) => `${bold(`${name}:`)} ${change}`)
    .join(" · ")
    .concat(describeOwnPromptTime(card));
}

/**
 * The engines' own prompt time, where they report it, beside the client's TTFT on the first screen: TTFT
 * includes queueing, so a candidate that queues less looks faster at prefill while its prompt processing
 * may have got slower (a llama.cpp round once read "96% less" with prompt times of 9.5 → 16 ms).
 */
function describeOwnPromptTime(card: Scorecard): string {
  const baseline = card.engineTimes?.baseline?.promptMs ?? null;
  const candidate = card.engineTimes?.candidate?.promptMs ?? null;
  if (baseline === null || candidate === null) return "";
  return ` · engines' own prompt time ${formatMs(baseline)} → ${formatMs(candidate)} ms`;
}

export function renderSpeedLead(card: Scorecard): string {
  return describeSpeedLead(card, (name) => `**${name}**`);
}

/**
 * The speed of both engines in full, folded: TTFT (the first token, queueing included) against TPOT and
 * ITL (decode), end to end and throughput, p50 / p90 / p99 and candidate ÷ baseline, and the engines' own
 * prompt and decode times where they report them. The first screen has its one-line lead.
 */
export function renderSpeedSection(card: Scorecard): string {
  const metrics = card.metrics;
  if (!metrics) return "";
  const rows = [
    ["Metric", "Baseline p50 / p90 / p99", "Candidate p50 / p90 / p99", "Candidate ÷ baseline"],
    ...LATENCY_ROWS.map(({ metric, label }) => [
      label,
      triple(metrics.baseline[metric], formatMs),
      triple(metrics.candidate[metric], formatMs),
      triple(metrics.ratio[metric], formatRatio),
    ]),
    [
      "Output tokens/s",
      formatRate(metrics.baseline.outputTokensPerS),
      formatRate(metrics.candidate.outputTokensPerS),
      formatRatio(metrics.ratio.outputTokensPerS),
    ],
    [
      "Requests/s",
      formatRate(metrics.baseline.requestsPerS),
      formatRate(metrics.candidate.requestsPerS),
      formatRatio(metrics.ratio.requestsPerS),
    ],
  ];
  const table = markdownTable(rows, { alignDelimiters: false, align: ["l", "r", "r", "r"] });
  // With several runs the metrics pool every run: one request per scored prompt and run.
  // A budget's round ran as many runs as its rule took.
  const runs = card.settings.budget ? card.runs.completed : card.settings.runs;
  const expected = card.promptsScored * runs;
  const partial = metrics.prompts < expected ? ` (${metrics.prompts} of ${expected}: the other shards' cards carried no metrics)` : "";
  const subject =
    runs === 1
      ? `${metrics.prompts} scored prompt${metrics.prompts === 1 ? "" : "s"}`
      : `${metrics.prompts} requests to each engine, the scored prompts of all ${runs} runs`;
  const basis =
    `Over ${subject}${partial}, each request cut at k, the output length both engines were compared at. ` +
    "TTFT is the time from sending a request to its first token, waiting in the engine's queue included (not the engine's prompt " +
    "processing alone), TPOT the time per output token after the first, ITL the time between streamed chunks, " +
    "as `vllm bench serve` and SGLang's `bench_serving` define them; rates are over the span from the first request sent to the last " +
    "token at k. " +
    "For times a ratio below 1.00× is faster, for rates above.";
  const own = renderEngineTimes(card);
  return renderFold(
    "Where the speed came from: TTFT, TPOT, ITL, end to end and throughput of both engines",
    `${table}\n\n${basis}${own ? `\n\n${own}` : ""}`,
  );
}
