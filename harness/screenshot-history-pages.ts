import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { writeHistorySite } from "../src/history/write-history-site.js";
import { silentLogger } from "../src/logger.js";
import { openDatabase } from "../src/store/open-database.js";
import { prepareDatabase } from "../src/store/prepare-database.js";
import { seedHistoryStore } from "./seed-history-store.js";

/*
 * The history pages' pictures in docs/images (history-*.png): a store seeded as the tests seed it (120
 * rounds of main with a slowdown and its bisection, the example pull requests' cards), written as the
 * static site (`speedgate history --html`), opened in Debian's Chromium at a desktop window's first
 * screen, a point of the trend hovered. Run: npx tsx harness/screenshot-history-pages.ts (look at them).
 */

const OUT = new URL("../docs/images/", import.meta.url);
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"].concat([
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
]);

export async function screenshotHistoryPages(): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), "speedgate-history-shots-"));
  try {
    const database = await openDatabase({ kind: "pglite", dataDir: join(dir, "data") }, { logger: silentLogger });
    let seeded;
    try {
      await prepareDatabase(database, silentLogger);
      seeded = await seedHistoryStore(database.pool, { repository: "acme/engine", mainRounds: 120 });
      await writeHistorySite(database.pool, "acme/engine", join(dir, "site"));
    } finally {
      await database.close();
    }
    const browser = await chromium.launchPersistentContext(join(dir, "profile"), {
      executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
      headless: true,
      args: FLAGS,
      viewport: { width: 1200, height: 900 },
    });
    const written: string[] = [];
    try {
      const page = await browser.newPage();
      const site = (path: string): string => pathToFileURL(join(dir, "site", path)).href;
      await page.goto(site("repos/acme/engine/index.html"));
      const chart = await page.waitForSelector(".chart[data-points]");
      const points = JSON.parse((await chart.getAttribute("data-points")) ?? "[]") as { i: number; x: number; y: number }[];
      const change = seeded.mainRounds.findIndex((round) => round.roundId === seeded.changeRoundId);
      const hovered = points.find((point) => point.i === change + 2) ?? points.at(-1);
      const over = await page.locator(".chart .u-over").first().boundingBox();
      if (hovered && over) {
        await page.mouse.move(over.x + hovered.x, over.y + hovered.y);
        await page.waitForSelector(".chart-tip:not([hidden])");
      }
      const shots: [string, string][] = [
        ["history-repository-page.png", ""],
        ["history-card-page.png", `cards/${seeded.pulls.get("scenarios-decode-regression")?.cardId ?? ""}.html`],
        ["history-runner-page.png", "repos/acme/engine/runners.html"],
      ];
      for (const [name, path] of shots) {
        if (path) {
          await page.goto(site(path));
          if (path.includes("runners")) await page.waitForSelector(".chart[data-points]");
        }
        const file = new URL(name, OUT).pathname;
        await page.screenshot({ path: file });
        written.push(file);
      }
    } finally {
      await browser.close();
    }
    return written;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const file of await screenshotHistoryPages()) console.log(`wrote ${file}`);
}
