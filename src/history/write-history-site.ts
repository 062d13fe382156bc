import { mkdir, readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { parseScorecardJson } from "../scorecard/read-scorecard.js";
import { listCardDocumentIds, readCardDocument } from "../store/card-documents.js";
import type { Queryable } from "../store/database.js";
import { escapeHtml } from "./escape-html.js";
import { staticPageLinks } from "./page-links.js";
import { PAGES_STYLESHEET } from "./pages-stylesheet.js";
import { readRepositoryPage, readRunnerPage } from "./read-history-pages.js";
import { renderCardPage } from "./render-card-page.js";
import { PAGE_ASSETS } from "./render-page-frame.js";
import { renderRepositoryPage } from "./render-repository-page.js";
import { renderRunnerPage } from "./render-runner-page.js";
import { TREND_CHART_SCRIPT } from "./trend-chart-script.js";

const require = createRequire(import.meta.url);

/**
 * `speedgate history --html DIR`: the app's pages of one repository as static files, for a team
 * without the app (publish the folder with GitHub Pages, as asv and github-action-benchmark do). Every
 * link is relative, uPlot and the chart script are copied beside the pages, and nothing is fetched
 * from elsewhere. It writes every card the store keeps: publish a private repository's only where its
 * readers are.
 */
export async function writeHistorySite(queryable: Queryable, repository: string, dir: string): Promise<{ pages: number }> {
  const name = repository.toLowerCase();
  const repoDir = join(dir, "repos", ...name.split("/"));
  await Promise.all([
    mkdir(repoDir, { recursive: true }),
    mkdir(join(dir, "cards"), { recursive: true }),
    mkdir(join(dir, "static"), { recursive: true }),
  ]);
  const [uplotScript, uplotStylesheet] = await Promise.all([
    readFile(require.resolve("uplot/dist/uPlot.iife.min.js")),
    readFile(require.resolve("uplot/dist/uPlot.min.css")),
  ]);
  await Promise.all([
    writeFile(join(dir, "static", PAGE_ASSETS.uplotScript), uplotScript),
    writeFile(join(dir, "static", PAGE_ASSETS.uplotStylesheet), uplotStylesheet),
    writeFile(join(dir, "static", PAGE_ASSETS.stylesheet), PAGES_STYLESHEET),
    writeFile(join(dir, "static", PAGE_ASSETS.chartScript), TREND_CHART_SCRIPT),
  ]);
  const repoLinks = staticPageLinks(3);
  await writeFile(join(repoDir, "index.html"), renderRepositoryPage(await readRepositoryPage(queryable, name), repoLinks));
  await writeFile(join(repoDir, "runners.html"), renderRunnerPage(await readRunnerPage(queryable, name), repoLinks));
  const cardLinks = staticPageLinks(1);
  let pages = 2;
  for (const id of await listCardDocumentIds(queryable, name)) {
    const document = await readCardDocument(queryable, id);
    if (!document) continue;
    const card = parseScorecardJson(document.cardJson, `card ${id}`);
    await writeFile(join(dir, "cards", `${id}.html`), renderCardPage({ ...document, card, links: cardLinks }));
    await writeFile(join(dir, "cards", `${id}.json`), document.cardJson);
    pages++;
  }
  const home = staticPageLinks(0).repository(name);
  await writeFile(
    join(dir, "index.html"),
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0; url=${escapeHtml(home)}">` +
      `<title>speedgate: ${escapeHtml(name)}</title></head><body><a href="${escapeHtml(home)}">${escapeHtml(name)}</a></body></html>\n`,
  );
  return { pages };
}
