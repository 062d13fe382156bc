import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { seedHistoryStore } from "../harness/seed-history-store.js";
import { APP_PAGE_LINKS } from "../src/history/page-links.js";
import { readRepositoryPage, readRunnerPage } from "../src/history/read-history-pages.js";
import { renderCardPage } from "../src/history/render-card-page.js";
import { renderRepositoryPage } from "../src/history/render-repository-page.js";
import { renderRunnerPage } from "../src/history/render-runner-page.js";
import { silentLogger } from "../src/logger.js";
import { parseScorecardJson } from "../src/scorecard/read-scorecard.js";
import { readCardDocument } from "../src/store/card-documents.js";
import { openDatabase } from "../src/store/open-database.js";
import { prepareDatabase } from "../src/store/prepare-database.js";
import { median } from "../src/scoring/median.js";

/*
 * Row 24 (#42): how long the app takes, server-side, to make each history page from a store holding
 * 1,000 rounds of main (each a card made through the real scoring rule, with its whole card kept), the
 * example pull requests' cards and a calibrated round: the store's reads and the HTML, as the page
 * handler does them (bot/pages/serve-history-pages.ts), on the embedded PGlite the app opens by
 * default. Median of `runs` after one warm-up each; the goal is 300 ms a page.
 */

export const HISTORY_PAGE_GOAL_MS = 300;

export interface HistoryPagesFigure {
  rounds: number;
  runs: number;
  repositoryMs: number;
  runnerMs: number;
  /** The largest card the store holds (the scenarios card, three workloads). */
  cardMs: number;
  repositoryBytes: number;
}

async function timed(runs: number, make: () => Promise<string>): Promise<{ ms: number; bytes: number }> {
  await make();
  const times: number[] = [];
  let bytes = 0;
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    bytes = (await make()).length;
    times.push(performance.now() - started);
  }
  return { ms: median(times) ?? Number.NaN, bytes };
}

export async function measureHistoryPages(options: { rounds?: number; runs?: number } = {}): Promise<HistoryPagesFigure> {
  const rounds = options.rounds ?? 1_000;
  const runs = options.runs ?? 9;
  const dir = await mkdtemp(join(tmpdir(), "speedgate-bench-pages-"));
  const database = await openDatabase({ kind: "pglite", dataDir: join(dir, "data") }, { logger: silentLogger });
  try {
    await prepareDatabase(database, silentLogger);
    const seeded = await seedHistoryStore(database.pool, { repository: "acme/engine", mainRounds: rounds });
    const cardId = seeded.pulls.get("scenarios-decode-regression")?.cardId ?? "";
    const repository = await timed(runs, async () =>
      renderRepositoryPage(await readRepositoryPage(database.pool, "acme/engine"), APP_PAGE_LINKS),
    );
    const runner = await timed(runs, async () => renderRunnerPage(await readRunnerPage(database.pool, "acme/engine"), APP_PAGE_LINKS));
    const card = await timed(runs, async () => {
      const document = await readCardDocument(database.pool, cardId);
      if (!document) throw new Error("the seeded card is not in the store");
      return renderCardPage({ ...document, card: parseScorecardJson(document.cardJson, cardId), links: APP_PAGE_LINKS });
    });
    return { rounds, runs, repositoryMs: repository.ms, runnerMs: runner.ms, cardMs: card.ms, repositoryBytes: repository.bytes };
  } finally {
    await database.close();
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const figure = await measureHistoryPages();
  console.log(
    `history pages over ${figure.rounds} rounds of main (median of ${figure.runs}): repository page ${figure.repositoryMs.toFixed(1)} ms ` +
      `(${Math.round(figure.repositoryBytes / 1024)} KiB), runner page ${figure.runnerMs.toFixed(1)} ms, ` +
      `card page ${figure.cardMs.toFixed(1)} ms`,
  );
}
