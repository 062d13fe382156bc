import { Zip, ZipDeflate, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { ArtifactError, readScorecardZip } from "../../src/github/read-scorecard-zip.js";
import { makeTestScorecard, zipScorecard } from "../../harness/fake-github/make-test-scorecard.js";

const LIMITS = { maxZipBytes: 1024 * 1024, maxJsonBytes: 2 * 1024 * 1024, maxPrompts: 1_000 };
const read = (zip: Uint8Array) => readScorecardZip(zip, "artifact", LIMITS);

describe("readScorecardZip", () => {
  it("reads a valid card from scorecard.json at the top of the zip", () => {
    const card = makeTestScorecard();
    expect(read(zipScorecard(card))).toEqual(card);
  });

  it("stops inflating a zip bomb at the limit", () => {
    // 64 MB of one byte deflates to a few tens of kilobytes.
    const bomb = zipSync({ "scorecard.json": new Uint8Array(64 * 1024 * 1024).fill(32) }, { level: 9 });
    expect(bomb.byteLength).toBeLessThan(LIMITS.maxZipBytes);
    expect(() => read(bomb)).toThrow(/inflates to more than the 2097152-byte limit/);
  });

  it("refuses a zip over the size limit before reading it", () => {
    const big = zipSync({ "scorecard.json": crypto.getRandomValues(new Uint8Array(60_000)), pad: new Uint8Array(0) }, { level: 0 });
    expect(() => readScorecardZip(big, "artifact", { ...LIMITS, maxZipBytes: 50_000 })).toThrow(/over the 50000-byte limit/);
  });

  it("never takes a card from a path other than scorecard.json at the top level", () => {
    const json = new TextEncoder().encode(JSON.stringify(makeTestScorecard()));
    const zip = zipSync({ "../scorecard.json": json, "nested/scorecard.json": json, "/scorecard.json": json });
    expect(() => read(zip)).toThrow(/has no scorecard.json at its top level/);
  });

  it("refuses a zip holding scorecard.json twice rather than pick one", () => {
    const parts: Uint8Array[] = [];
    const zip = new Zip((error, data) => {
      if (error) throw error;
      parts.push(data);
    });
    for (const card of [makeTestScorecard(), makeTestScorecard({ scores: [9, 9, 9] })]) {
      const entry = new ZipDeflate("scorecard.json");
      zip.add(entry);
      entry.push(new TextEncoder().encode(JSON.stringify(card)), true);
    }
    zip.end();
    expect(() => read(Buffer.concat(parts))).toThrow(/holds scorecard.json more than once/);
  });

  it("refuses a card that fails the schema, naming the field", () => {
    const card = { ...makeTestScorecard(), roundScore: "fast" };
    expect(() => read(zipScorecard(JSON.stringify(card)))).toThrow(/roundScore/);
  });

  it("refuses bytes that are not a zip, and JSON that is not JSON", () => {
    expect(() => read(new TextEncoder().encode("not a zip at all"))).toThrow(ArtifactError);
    expect(() => read(zipScorecard("{ not json"))).toThrow(/expected a JSON score card/);
  });

  it("refuses a card with more prompts than the app's limit before validating it", () => {
    const card = makeTestScorecard({ scores: Array.from({ length: 1_001 }, () => 1.1) });
    expect(() => read(zipScorecard(card))).toThrow(/the card has 1001 prompts, over the app's limit of 1000 per card/);
    // The count is taken before the schema: a card whose prompts are not even valid is refused for their number.
    expect(() => read(zipScorecard({ ...card, prompts: Array.from({ length: 1_001 }, () => "x") } as unknown as typeof card))).toThrow(
      /1001 prompts/,
    );
  });
});
