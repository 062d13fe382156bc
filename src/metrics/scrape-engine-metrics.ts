import { request } from "undici";
import { type MetricTotals, parsePrometheusText } from "./read-engine-metrics.js";

/** A metrics page larger than this is not read: the names speedgate needs are a few lines of it. */
const MAX_METRICS_BYTES = 8 * 1024 * 1024;
const SCRAPE_TIMEOUT_MS = 3_000;

/**
 * The engine's /metrics as totals, or null when it serves none (SGLang without --enable-metrics), too
 * slowly or too much: the engine's own times are extra information, never a reason to fail a round.
 */
export async function scrapeEngineMetrics(baseUrl: string, signal: AbortSignal): Promise<MetricTotals | null> {
  try {
    const response = await request(new URL("/metrics", baseUrl), {
      method: "GET",
      signal: AbortSignal.any([signal, AbortSignal.timeout(SCRAPE_TIMEOUT_MS)]),
    });
    if (response.statusCode !== 200) {
      await response.body.dump();
      return null;
    }
    const chunks: Buffer[] = [];
    let bytes = 0;
    for await (const chunk of response.body) {
      bytes += (chunk as Buffer).length;
      if (bytes > MAX_METRICS_BYTES) {
        response.body.destroy();
        return null;
      }
      chunks.push(chunk as Buffer);
    }
    return parsePrometheusText(Buffer.concat(chunks).toString("utf8"));
  } catch {
    return null;
  }
}
