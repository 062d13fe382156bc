import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_ZIP_LIMITS } from "../../src/github/read-scorecard-zip.js";
import { type CardReader, WorkerCardReader } from "../../bot/read-cards-off-thread.js";
import { makeTestScorecard, zipScorecard } from "../../harness/fake-github/make-test-scorecard.js";

const GATE = { minRoundScore: 1, use: "round-score" as const, maxUnscored: 0.1, minPrompts: 10 };
const job = (zip: Uint8Array) => ({
  zip,
  source: "artifact speedgate-scorecard of run 1",
  limits: DEFAULT_ZIP_LIMITS,
  gate: GATE,
  docsBaseUrl: null,
});

describe("WorkerCardReader: an artifact's card read in a worker thread", () => {
  let reader: CardReader | undefined;
  afterEach(async () => await reader?.close());

  it("reads, re-gates and renders a card, and refuses a bad artifact as a problem, not an error", async () => {
    reader = new WorkerCardReader();
    const result = await reader.read(job(zipScorecard(makeTestScorecard({ scores: Array.from({ length: 12 }, () => 1.3) }))));
    expect(result).toMatchObject({ ok: true, passed: true, filesLeftOut: 0 });
    expect(result.ok && result.headline).toContain("Round score 1.30×");
    expect(result.ok && result.comment.startsWith("<!-- speedgate -->")).toBe(true);
    const bad = await reader.read(job(zipScorecard("{ not json")));
    expect(bad).toEqual({ ok: false, problem: expect.stringContaining("expected a JSON score card") as string });
  });

  it("refuses a card that takes longer than its time limit, and reads the next one on a fresh worker", async () => {
    reader = new WorkerCardReader({ heapMb: 1_024, timeoutMs: 1 });
    const big = makeTestScorecard({ scores: Array.from({ length: 5_000 }, (_, index) => 0.5 + (index % 100) / 100) });
    const refused = await reader.read(job(zipScorecard(big)));
    expect(refused).toEqual({ ok: false, problem: "artifact speedgate-scorecard of run 1: reading the card took longer than 0 s" });
    await reader.close();
    reader = new WorkerCardReader();
    expect(await reader.read(job(zipScorecard(makeTestScorecard())))).toMatchObject({ ok: true });
  });
});
