import { Unzip, UnzipInflate } from "fflate";
import { parseScorecard } from "../scorecard/read-scorecard.js";
import type { Scorecard } from "../scorecard/scorecard-schema.js";

/** An artifact that cannot be a card: too big, not a zip, no scorecard.json, or an invalid card. */
export class ArtifactError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ArtifactError";
  }
}

export interface ZipLimits {
  /** Largest zip accepted, in bytes. */
  maxZipBytes: number;
  /** Largest scorecard.json accepted once inflated, in bytes. */
  maxJsonBytes: number;
  /**
   * Most prompts accepted on a card, counted before the card is validated: validating, re-gating
   * (a bootstrap over the prompts) and rendering grow with them, so this bounds the app's work on
   * one artifact. The card schema itself admits more, for the CLI.
   */
  maxPrompts: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = { maxZipBytes: 16 * 1024 * 1024, maxJsonBytes: 64 * 1024 * 1024, maxPrompts: 20_000 };
export const SCORECARD_ENTRY = "scorecard.json";
// Small pushes bound what one push can inflate to (deflate expands at most ~1032×) before the count stops it.
const PUSH_BYTES = 4 * 1024;

/**
 * Reads scorecard.json out of an artifact zip entirely in memory. The zip came from a job that ran a
 * pull request's code: entry names are only compared, never used as paths; inflation stops at the
 * limit however small the entry claims to be; any second entry of the same name is refused.
 */
export function readScorecardZip(zip: Uint8Array, source: string, limits: ZipLimits = DEFAULT_ZIP_LIMITS): Scorecard {
  if (zip.byteLength > limits.maxZipBytes) {
    throw new ArtifactError(`${source}: the artifact is ${zip.byteLength} bytes, over the ${limits.maxZipBytes}-byte limit`);
  }
  const chunks: Uint8Array[] = [];
  let inflated = 0;
  let entries = 0;
  let problem: string | null = null;
  let finished = false;
  const unzip = new Unzip((file) => {
    if (file.name !== SCORECARD_ENTRY) return;
    entries++;
    if (entries > 1) {
      problem = `the artifact holds ${SCORECARD_ENTRY} more than once`;
      return;
    }
    if (file.compression !== 0 && file.compression !== 8) {
      problem = `${SCORECARD_ENTRY} uses an unsupported compression method (${file.compression})`;
      return;
    }
    file.ondata = (error, data, final) => {
      if (problem) return;
      if (error) {
        problem = `${SCORECARD_ENTRY} does not inflate: ${error.message}`;
        return;
      }
      inflated += data.byteLength;
      if (inflated > limits.maxJsonBytes) {
        problem = `${SCORECARD_ENTRY} inflates to more than the ${limits.maxJsonBytes}-byte limit`;
        file.terminate();
        return;
      }
      chunks.push(data);
      if (final) finished = true;
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  try {
    for (let offset = 0; offset < zip.byteLength && !problem; offset += PUSH_BYTES) {
      const end = Math.min(zip.byteLength, offset + PUSH_BYTES);
      unzip.push(zip.subarray(offset, end), end === zip.byteLength);
    }
  } catch (error) {
    problem ??= `the artifact is not a readable zip: ${(error as Error).message}`;
  }
  if (problem) throw new ArtifactError(`${source}: ${problem}`);
  if (entries === 0) throw new ArtifactError(`${source}: the artifact has no ${SCORECARD_ENTRY} at its top level`);
  if (!finished) throw new ArtifactError(`${source}: ${SCORECARD_ENTRY} is truncated`);
  const text = new TextDecoder("utf-8", { fatal: false }).decode(Buffer.concat(chunks));
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ArtifactError(`${source} ${SCORECARD_ENTRY}: expected a JSON score card, ${(error as Error).message}`);
  }
  const prompts = typeof value === "object" && value !== null ? (value as { prompts?: unknown }).prompts : undefined;
  if (Array.isArray(prompts) && prompts.length > limits.maxPrompts) {
    throw new ArtifactError(
      `${source} ${SCORECARD_ENTRY}: the card has ${prompts.length} prompts, over the app's limit of ${limits.maxPrompts} per card`,
    );
  }
  try {
    return parseScorecard(value, `${source} ${SCORECARD_ENTRY}`);
  } catch (error) {
    throw new ArtifactError((error as Error).message);
  }
}
