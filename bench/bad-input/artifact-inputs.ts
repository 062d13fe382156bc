import { randomBytes } from "node:crypto";
import { Zip, ZipPassThrough, gzipSync, zipSync } from "fflate";
import { ArtifactError, readScorecardZip } from "../../src/github/read-scorecard-zip.js";
import type { Scorecard } from "../../src/scorecard/scorecard-schema.js";
import { makeTestScorecard, zipScorecard } from "../../harness/fake-github/make-test-scorecard.js";
import { makeCard } from "../../harness/make-card.js";
import { type CorpusRow, describeError, firstLine } from "./corpus-row.js";

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

/** A zip whose entries are given in order, names repeated if asked (fflate's zipSync takes an object, so no repeats). */
function zipEntries(entries: Array<[string, Uint8Array]>): Uint8Array {
  const parts: Uint8Array[] = [];
  const zip = new Zip((error, chunk) => {
    if (error) throw error;
    parts.push(chunk);
  });
  for (const [name, data] of entries) {
    const file = new ZipPassThrough(name);
    zip.add(file);
    file.push(data, true);
  }
  zip.end();
  return Buffer.concat(parts);
}

/** A stored (uncompressed) zip whose method field says something else, in the local header and the central directory. */
function withCompressionMethod(method: number): Uint8Array {
  const zip = Buffer.from(zipSync({ "scorecard.json": encode(JSON.stringify(makeTestScorecard())) }, { level: 0 }));
  zip.writeUInt16LE(method, 8);
  const central = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
  if (central >= 0) zip.writeUInt16LE(method, central + 10);
  return zip;
}

interface ArtifactCase {
  input: string;
  zip: () => Uint8Array;
  /** What a clear refusal must mention, case-insensitive. */
  mentions: string;
  /** For inputs whose right answer is to read them safely: what must hold of the card read. */
  safeIfRead?: (card: Scorecard) => string | null;
}

const card = (): Record<string, unknown> => makeTestScorecard();
const cardWith = (change: (value: Record<string, unknown>) => void): Uint8Array => {
  const value = card();
  change(value);
  return zipScorecard(JSON.stringify(value));
};

/** Valid metrics from a real card, with one engine's figures changed by `change`. */
function forgedMetrics(change: (engine: Record<string, unknown>) => void): unknown {
  const metrics = JSON.parse(JSON.stringify(makeCard([{ speedup: 1.2 }]).metrics)) as Record<string, Record<string, unknown>>;
  change(metrics.baseline as Record<string, unknown>);
  return metrics;
}

const CASES: ArtifactCase[] = [
  { input: "not a zip: a text file", zip: () => encode("this is not a zip\n"), mentions: "scorecard.json" },
  { input: "not a zip: 4 KiB of random bytes", zip: () => randomBytes(4096), mentions: "scorecard.json" },
  { input: "not a zip: an empty file", zip: () => new Uint8Array(0), mentions: "scorecard.json" },
  {
    input: "not a zip: scorecard.json gzipped",
    zip: () => gzipSync(encode(JSON.stringify(makeTestScorecard()))),
    mentions: "scorecard.json",
  },
  {
    input: "a zip cut in half",
    zip: () => {
      const whole = zipScorecard(makeTestScorecard());
      return whole.subarray(0, Math.floor(whole.length / 2));
    },
    mentions: "zip",
  },
  { input: "a zip with no scorecard.json", zip: () => zipSync({ "readme.txt": encode("hi") }), mentions: "no scorecard.json" },
  {
    input: "a card of 20,001 prompts, over what the app reads per card",
    zip: () => zipScorecard(makeTestScorecard({ scores: Array.from({ length: 20_001 }, () => 1.1) })),
    mentions: "over the app's limit of 20000 per card",
  },
  {
    input: "zip bomb: scorecard.json inflating to 200 MiB of spaces",
    zip: () => zipSync({ "scorecard.json": new Uint8Array(200 * 1024 * 1024).fill(0x20) }, { level: 9 }),
    mentions: "limit",
  },
  {
    input: "oversized scorecard.json: 70 MiB of valid JSON",
    zip: () => zipScorecard(JSON.stringify({ ...card(), padding: "x".repeat(70 * 1024 * 1024) })),
    mentions: "limit",
  },
  {
    input: "oversized zip: 17 MiB stored",
    zip: () => zipSync({ "scorecard.json": randomBytes(17 * 1024 * 1024) }, { level: 0 }),
    mentions: "limit",
  },
  {
    input: "path traversal: ../scorecard.json only",
    zip: () => zipEntries([["../scorecard.json", encode(JSON.stringify(makeTestScorecard()))]]),
    mentions: "no scorecard.json",
  },
  {
    input: "path traversal: /etc/scorecard.json only",
    zip: () => zipEntries([["/etc/scorecard.json", encode(JSON.stringify(makeTestScorecard()))]]),
    mentions: "no scorecard.json",
  },
  {
    input: "path traversal: sub/../scorecard.json only",
    zip: () => zipEntries([["sub/../scorecard.json", encode(JSON.stringify(makeTestScorecard()))]]),
    mentions: "no scorecard.json",
  },
  {
    input: "path traversal: ..\\scorecard.json only",
    zip: () => zipEntries([["..\\scorecard.json", encode(JSON.stringify(makeTestScorecard()))]]),
    mentions: "no scorecard.json",
  },
  {
    input: "scorecard.json twice, the second a different card",
    zip: () =>
      zipEntries([
        ["scorecard.json", encode(JSON.stringify(makeTestScorecard()))],
        ["scorecard.json", encode(JSON.stringify(makeTestScorecard({ scores: [9, 9, 9] })))],
      ]),
    mentions: "more than once",
  },
  { input: "scorecard.json compressed with bzip2 (method 12)", zip: () => withCompressionMethod(12), mentions: "compression" },
  { input: "scorecard.json is not JSON", zip: () => zipScorecard("{ roundScore: 1.5 "), mentions: "JSON" },
  { input: "scorecard.json is empty", zip: () => zipScorecard(""), mentions: "JSON" },
  { input: "scorecard.json is a JSON array", zip: () => zipScorecard("[1, 2, 3]"), mentions: "scorecard.json" },
  { input: "schema: prompts is a string", zip: () => cardWith((value) => (value.prompts = "all of them")), mentions: "prompts" },
  { input: "schema: roundScore is a string", zip: () => cardWith((value) => (value.roundScore = "fast")), mentions: "roundScore" },
  { input: "schema: schemaVersion 99", zip: () => cardWith((value) => (value.schemaVersion = 99)), mentions: "schemaVersion" },
  { input: "schema: gate missing", zip: () => cardWith((value) => delete value.gate), mentions: "gate" },
  {
    input: "schema: a prompt's score is negative",
    zip: () =>
      cardWith((value) => (value.prompts = (value.prompts as Array<Record<string, unknown>>).map((prompt) => ({ ...prompt, score: -1 })))),
    mentions: "prompts",
  },
  {
    input: "schema: failure with an unknown kind",
    zip: () =>
      cardWith(
        (value) =>
          (value.failure = {
            engine: "candidate",
            stage: "startup",
            kind: "rm -rf",
            label: "x",
            summary: "x",
            hint: "x",
            exitCode: 1,
            signal: null,
            logTail: [],
          }),
      ),
    mentions: "failure",
  },
  {
    input: "schema: docsBaseUrl a javascript: link dressed as the docs folder",
    zip: () => cardWith((value) => (value.docsBaseUrl = "javascript:alert(1)//docs/troubleshooting/")),
    mentions: "docsBaseUrl",
  },
  {
    input: "schema: docsBaseUrl breaking out of the Markdown link",
    zip: () => cardWith((value) => (value.docsBaseUrl = "https://example.com/x) ![x](https://evil.example/docs/troubleshooting/")),
    mentions: "docsBaseUrl",
  },
  {
    input: "schema: metrics with a negative TTFT",
    zip: () => cardWith((value) => (value.metrics = forgedMetrics((engine) => (engine.ttftMs = { median: -5, p90: 1, p99: 1 })))),
    mentions: "metrics",
  },
  {
    input: "schema: a metrics histogram of 100,000 bins",
    zip: () =>
      cardWith(
        (value) =>
          (value.metrics = forgedMetrics(
            (engine) =>
              (engine.distributions = {
                ...(engine.distributions as object),
                itlMs: { resolutionMs: 0.01, bins: Array.from({ length: 100_000 }, (_, index) => [index, 1]) },
              }),
          )),
      ),
    mentions: "metrics",
  },
  {
    input: "schema: gpuState listing 10,000 processes",
    zip: () =>
      cardWith(
        (value) =>
          (value.gpuState = {
            sameLaunch: true,
            baseline: null,
            candidate: {
              takenAt: "x",
              error: null,
              driverVersion: null,
              cudaVersion: null,
              gpus: [],
              processesError: null,
              processes: Array.from({ length: 10_000 }, (_, pid) => ({ gpuUuid: null, pid, name: "x", usedMemoryMiB: 1 })),
            },
          }),
      ),
    mentions: "gpuState",
  },
  {
    input: "schema: __proto__ key trying to pollute Object.prototype",
    zip: () => zipScorecard(JSON.stringify(card()).replace(/^\{/, '{"__proto__": {"polluted": true}, ')),
    mentions: "__proto__",
    // JSON.parse makes "__proto__" an own key, not the prototype; the schema then drops unknown keys.
    safeIfRead: (read) =>
      (Object.prototype as Record<string, unknown>).polluted !== undefined ||
      (read as unknown as Record<string, unknown>).polluted !== undefined
        ? "Object.prototype or the card was polluted"
        : null,
  },
];

/** Artifacts as the app downloads them, read by src/github/read-scorecard-zip.ts. */
export function runArtifactInputs(): CorpusRow[] {
  return CASES.map((item) => {
    const base = { category: "artifact", input: item.input };
    let zip: Uint8Array;
    try {
      zip = item.zip();
    } catch (error) {
      return { ...base, outcome: "crash", message: `the corpus could not build the input: ${describeError(error)}` };
    }
    try {
      const read = readScorecardZip(zip, "artifact speedgate-scorecard");
      if (!item.safeIfRead) return { ...base, outcome: "accepted", message: "read as a valid card" };
      const problem = item.safeIfRead(read);
      return problem
        ? { ...base, outcome: "accepted", message: problem }
        : { ...base, outcome: "clear", message: "read safely: the unknown key was dropped, Object.prototype untouched" };
    } catch (error) {
      const full = describeError(error);
      const message = firstLine(full.replace(/: \d+ problems\n\s*- /, ": "));
      if (!(error instanceof ArtifactError)) return { ...base, outcome: "crash", message };
      if (!full.toLowerCase().includes(item.mentions.toLowerCase())) {
        return { ...base, outcome: "crash", message: `unclear: does not mention ${JSON.stringify(item.mentions)}: ${message}` };
      }
      return { ...base, outcome: "clear", message };
    }
  });
}
