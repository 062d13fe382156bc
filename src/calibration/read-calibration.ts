import { readFile } from "node:fs/promises";
import { ConfigError } from "../vocabulary/config-error.js";
import { formatConfigIssues } from "../vocabulary/format-config-issues.js";
import { type CalibrationFile, calibrationFileSchema } from "./calibration-schema.js";

/** Reads and validates a calibration file; every problem names the file and the field, like a config error. */
export async function readCalibration(path: string, field = "gate.calibration"): Promise<CalibrationFile> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new ConfigError(
      `${field}: expected a readable calibration file written by speedgate calibrate, could not read ${path} ` +
        `(${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${field}: ${path}: expected a JSON calibration file, ${(error as Error).message}`);
  }
  const parsed = calibrationFileSchema.safeParse(value);
  if (!parsed.success) {
    throw ConfigError.fromProblems(formatConfigIssues(parsed.error.issues, value, calibrationFileSchema).slice(0, 20), `${field}: ${path}`);
  }
  return parsed.data;
}
