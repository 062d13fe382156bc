import { runAppAttackInputs } from "./bad-input/app-attack-inputs.js";
import { runArtifactInputs } from "./bad-input/artifact-inputs.js";
import { runConfigInputs } from "./bad-input/config-inputs.js";
import { runFenceCommitInputs, runFenceInputs } from "./bad-input/fence-inputs.js";
import type { CorpusRow } from "./bad-input/corpus-row.js";
import { runWebhookInputs } from "./bad-input/webhook-inputs.js";

export type { CorpusRow } from "./bad-input/corpus-row.js";

export interface BadInputCorpusResult {
  tried: number;
  clearErrors: number;
  crashes: number;
  rows: CorpusRow[];
}

/**
 * Bad input, a clear error, nothing half-written: every round config field wrong, prompts files
 * with a bad line, bad patches (all through `speedgate run`, checking --out stays empty), hostile
 * artifacts (the app's zip reader), webhook payloads missing fields and /rescore comments with
 * shell metacharacters (the app in-process against the local GitHub), issue #12's and #24's attacks on
 * the app (bench/bad-input/app-attack-inputs.ts), and the events under which the action must refuse a
 * pull request's patch as a host process, with the commits a dispatch names checked against a real
 * clone (bench/bad-input/fence-inputs.ts). Goal: crashes 0, accepted 0.
 */
export async function runBadInputCorpus(): Promise<BadInputCorpusResult> {
  const rows = [
    ...(await runConfigInputs()),
    ...runArtifactInputs(),
    ...(await runWebhookInputs()),
    ...(await runAppAttackInputs()),
    ...runFenceInputs(),
    ...(await runFenceCommitInputs()),
  ];
  return {
    tried: rows.length,
    clearErrors: rows.filter((row) => row.outcome === "clear").length,
    crashes: rows.filter((row) => row.outcome === "crash").length,
    rows,
  };
}

/** Per category: tried, clear, crash, accepted; for the report. */
export function countByCategory(
  rows: readonly CorpusRow[],
): Array<{ category: string; tried: number; clear: number; crash: number; accepted: number }> {
  const counts = new Map<string, { category: string; tried: number; clear: number; crash: number; accepted: number }>();
  for (const row of rows) {
    const entry = counts.get(row.category) ?? { category: row.category, tried: 0, clear: 0, crash: 0, accepted: 0 };
    entry.tried++;
    entry[row.outcome === "clear" ? "clear" : row.outcome === "crash" ? "crash" : "accepted"]++;
    counts.set(row.category, entry);
  }
  return [...counts.values()];
}

// `tsx bench/bad-input-corpus.ts` prints the counts and every row that is not a clear error.
if (import.meta.url === `file://${process.argv[1] ?? ""}`) {
  const result = await runBadInputCorpus();
  for (const entry of countByCategory(result.rows)) {
    process.stdout.write(
      `${entry.category}: ${entry.tried} tried, ${entry.clear} clear, ${entry.crash} crashes, ${entry.accepted} accepted\n`,
    );
  }
  process.stdout.write(
    `total: ${result.tried} tried, ${result.clearErrors} clear errors, ${result.crashes} crashes, ` +
      `${result.tried - result.clearErrors - result.crashes} accepted\n`,
  );
  for (const row of result.rows.filter((entry) => entry.outcome !== "clear")) {
    process.stdout.write(`  ${row.outcome}: [${row.category}] ${row.input}: ${row.message}\n`);
  }
}
