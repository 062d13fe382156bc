import type { RequestRecord } from "../scoring/request-record.js";
import { median } from "../scoring/median.js";
import type { ReportedEngineTimes } from "../vocabulary/engine-reported-times.js";

const round3 = (value: number | null): number | null => (value === null ? null : Math.round(value * 1000) / 1000);

/**
 * One engine's own times over its answered requests that carried them (llama.cpp's `timings`): the
 * median prompt time per request and the median decode time per generated token. Null when none did.
 */
export function summarizeReportedTimes(records: Iterable<RequestRecord | null>): ReportedEngineTimes | null {
  const prompt: number[] = [];
  const decode: number[] = [];
  for (const record of records) {
    const times = record?.ok ? record.engineTimes : null;
    if (!times) continue;
    prompt.push(times.promptMs);
    if (times.decodeTokens > 0) decode.push(times.decodeMs / times.decodeTokens);
  }
  if (prompt.length === 0) return null;
  return {
    requests: prompt.length,
    promptMs: round3(median(prompt)),
    decodeMsPerToken: round3(median(decode)),
    statistic: "median",
  };
}
