import { readFile } from "node:fs/promises";
import { ConfigError } from "../vocabulary/config-error.js";
import { formatConfigIssues } from "../vocabulary/format-config-issues.js";
import { convertScorecardV1 } from "./convert-scorecard-v1.js";
import { SCORECARD_SCHEMA_VERSION, type Scorecard, scorecardSchema } from "./scorecard-schema.js";
import { scorecardSchemaV1 } from "./scorecard-schema-v1.js";

/**
 * Validates a card from any source (a file, an artifact); errors name the field like config errors
 * do. A version-1 card (from a runner still on an older speedgate) is validated against its own
 * schema, then converted to the current version: the later fields it never had come back null.
 */
export function parseScorecard(value: unknown, source: string): Scorecard {
  const version = value !== null && typeof value === "object" && "schemaVersion" in value ? value.schemaVersion : undefined;
  if (version === 1) {
    const parsed = scorecardSchemaV1.safeParse(value);
    if (!parsed.success) {
      throw ConfigError.fromProblems(formatConfigIssues(parsed.error.issues, value, scorecardSchemaV1).slice(0, 20), source);
    }
    return convertScorecardV1(parsed.data);
  }
  if (version !== SCORECARD_SCHEMA_VERSION) {
    throw new ConfigError(
      `${source}: schemaVersion: expected 1 or ${SCORECARD_SCHEMA_VERSION}, got ${JSON.stringify(version) ?? "nothing"}`,
    );
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
    throw new ConfigError(
      `${path}: expected a readable scorecard.json (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  return parseScorecardJson(text, path);
}
