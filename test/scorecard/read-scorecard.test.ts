import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/vocabulary/config-error.js";
import { parseScorecard } from "../../src/scorecard/read-scorecard.js";
import { SCORECARD_SCHEMA_VERSION } from "../../src/scorecard/scorecard-schema.js";
import { makeCard } from "../../harness/make-card.js";
import { toVersion1 } from "../support/version-one-card.js";

describe("parseScorecard", () => {
  const card = makeCard([{ speedup: 1.2 }, { speedup: 1.1 }]);

  it("reads the current schema, with metrics, GPU state and the docs link", () => {
    expect(SCORECARD_SCHEMA_VERSION).toBe(2);
    expect(parseScorecard(JSON.parse(JSON.stringify(card)), "card")).toEqual(card);
  });

  it("reads a schema 1 card as the current version: converted, its prompt scores kept, the later fields null", () => {
    const read = parseScorecard(JSON.parse(JSON.stringify(toVersion1(card))), "old.json");
    expect(read).toMatchObject({
      schemaVersion: 2,
      convertedFrom: 1,
      metrics: null,
      gpuState: null,
      docsBaseUrl: null,
      settings: { runs: 1 },
    });
    expect(read.prompts.map((prompt) => [prompt.id, prompt.status, prompt.score])).toEqual(
      card.prompts.map((prompt) => [prompt.id, prompt.status, prompt.score]),
    );
    expect(read.roundScore).toBeCloseTo(card.roundScore as number, 5);
  });

  it("reads a late schema 1 card with the integrity fields: a diverged prompt stays diverged and counts as unscored", () => {
    const old = toVersion1(card);
    const first = old.prompts[0];
    if (!first) throw new Error("the card has prompts");
    const late = {
      ...old,
      diverged: 1,
      implausible: 0,
      prompts: [{ ...first, status: "diverged", score: 0, speedup: null, agreement: 0.1 }, ...old.prompts.slice(1)],
    };
    const read = parseScorecard(JSON.parse(JSON.stringify(late)), "late.json");
    expect(read.prompts[0]).toMatchObject({ status: "diverged", score: 0, agreement: 0.1 });
    expect([read.diverged, read.unscored]).toEqual([1, 1]);
  });

  it("refuses a schema 1 card that carries schema 2 fields, and a schema 2 card without them", () => {
    const { metrics: _metrics, ...withoutMetrics } = card;
    expect(() => parseScorecard(withoutMetrics, "new.json")).toThrow(ConfigError);
    expect(() => parseScorecard({ ...card, schemaVersion: 3 }, "future.json")).toThrow(/schemaVersion/);
  });

  it("refuses a docs link that is not an https URL to a docs/troubleshooting folder", () => {
    for (const docsBaseUrl of [
      "javascript:alert(1)//docs/troubleshooting/",
      "http://example.com/docs/troubleshooting/",
      "https://evil.example/x) [y](z/docs/troubleshooting/",
    ]) {
      expect(() => parseScorecard({ ...card, docsBaseUrl }, "forged.json")).toThrow(/docsBaseUrl/);
    }
  });

  it("refuses forged metrics: a negative time, an unbounded histogram", () => {
    const metrics = card.metrics;
    if (!metrics) throw new Error("the card has metrics");
    const negative = { ...metrics, baseline: { ...metrics.baseline, ttftMs: { ...metrics.baseline.ttftMs, median: -1 } } };
    expect(() => parseScorecard({ ...card, metrics: negative }, "forged.json")).toThrow(/metrics/);
    const bins = Array.from({ length: 4_001 }, (_, index): [number, number] => [index, 1]);
    const huge = {
      ...metrics,
      baseline: { ...metrics.baseline, distributions: { ...metrics.baseline.distributions, itlMs: { resolutionMs: 0.01, bins } } },
    };
    expect(() => parseScorecard({ ...card, metrics: huge }, "forged.json")).toThrow(/metrics/);
  });
});
