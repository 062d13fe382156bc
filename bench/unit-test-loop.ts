/*
 * The edit-test loop's cost: `npm run test:unit` (the Vitest project with no global setup) run as a
 * developer runs it, timed from spawn to exit. The goal (60 s on a 2-core machine) is what keeps the
 * loop worth running after every edit; a timed test could not hold it on a loaded machine, a bench row
 * can be read against the load it reports.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const UNIT_LOOP_GOAL_S = 60;

export interface UnitLoopFigure {
  seconds: number;
  files: number;
  tests: number;
  failed: number;
}

interface VitestJsonReport {
  numTotalTests: number;
  numFailedTests: number;
  testResults: unknown[];
}

function isVitestJsonReport(value: unknown): value is VitestJsonReport {
  if (typeof value !== "object" || value === null) return false;
  const report = value as Record<string, unknown>;
  return typeof report.numTotalTests === "number" && typeof report.numFailedTests === "number" && Array.isArray(report.testResults);
}

/** Runs the unit project once from the repository root (the process's working directory). */
export async function measureUnitTestLoop(): Promise<UnitLoopFigure> {
  const folder = await mkdtemp(join(tmpdir(), "speedgate-unit-loop-"));
  const reportFile = join(folder, "report.json");
  try {
    const started = performance.now();
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn("npx", ["vitest", "run", "--project", "unit", "--reporter=json", `--outputFile=${reportFile}`], {
        stdio: "ignore",
      });
      child.once("error", reject);
      child.once("exit", resolve);
    });
    const seconds = (performance.now() - started) / 1000;
    const parsed: unknown = JSON.parse(await readFile(reportFile, "utf8"));
    if (!isVitestJsonReport(parsed)) throw new Error(`vitest wrote no JSON report to ${reportFile} (exit ${String(code)})`);
    return { seconds, files: parsed.testResults.length, tests: parsed.numTotalTests, failed: parsed.numFailedTests };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
