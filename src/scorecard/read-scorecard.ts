import { readFile } from "node:fs/promises";
import { ConfigError } from "../config/config-error.js";
import { formatConfigIssues } from "../config/format-config-issues.js";
import { SCORECARD_SCHEMA_VERSION, type Scorecard, scorecardSchema, scorecardV1Schema } from "./scorecard-schema.js";

/**
 * Validates a card from any source (a file, an artifact); errors name the field like config errors do.
 * A version 1 card (from a runner still on an older speedgate) is read by its own schema and carries
 * none of the later fields: it comes back as the current version with those set to null.
 */
export function parseScorecard(value: unknown, source: string): Scorecard {
  const version = value !== null && typeof value === "object" && "schemaVersion" in value ? value.schemaVersion : undefined;
  if (version === 1) {
    const parsed = scorecardV1Schema.safeParse(value);
    if (!parsed.success) {
      throw ConfigError.fromProblems(formatConfigIssues(parsed.error.issues, value, scorecardV1Schema).slice(0, 20), source);
    }
    return { ...parsed.data, schemaVersion: SCORECARD_SCHEMA_VERSION, metrics: null, gpuState: null, docsBaseUrl: null };
  }
  const parsed = scorecardSchema.safeParse(value);
  if (!parsed.success) {
    throw ConfigError.fromProblems(formatConfigIssues(parsed.error.issues, value, scorecardSchema).slice(0, 20), source);
  }
  return parsed.data;
}

export function parseScorecardJson(text: string, source: string): Scorecard {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${source}: expected a JSON score card, ${(error as Error).message}`);
  }
  return parseScorecard(value, source);
}

export async function readScorecard(path: string): Promise<Scorecard> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new ConfigError(`${path}: expected a readable scorecard.json (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  return parseScorecardJson(text, path);
}
