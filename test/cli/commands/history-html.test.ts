import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SeededHistory, seedHistoryStore } from "../../../harness/seed-history-store.js";
import { main } from "../../../src/cli/main.js";
import { createRecordingLogger, silentLogger } from "../../../src/logger.js";
import { migrateDatabase } from "../../../src/store/migrate-database.js";
import { captureStream } from "../../support/capture-stream.js";
import { type TestDatabaseHandle, pgliteBackend } from "../../support/database/database-backends.js";
import { makeTempDir } from "../../support/make-temp-dir.js";

/*
 * `speedgate history --html DIR` (#42): the app's pages of one repository as static files from the
 * store, for a team without the app. Every link of every page resolves to a file written beside it
 * (nothing fetched from elsewhere), and every card the store keeps has its page and its JSON.
 */

function localLinks(html: string): string[] {
  return [...html.matchAll(/(?:href|src)="([^"#]+)"/g)].map((match) => match[1] ?? "").filter((link) => !/^[a-z]+:/.test(link));
}

describe("speedgate history --html", () => {
  let handle: TestDatabaseHandle;
  let seeded: SeededHistory;
  beforeAll(async () => {
    handle = await pgliteBackend().create();
    const database = await handle.open();
    try {
      await migrateDatabase(database.pool, { logger: silentLogger });
      seeded = await seedHistoryStore(database.pool, { repository: "Acme/Engine", mainRounds: 6 });
    } finally {
      await database.close();
    }
  });
  afterAll(async () => await handle.destroy());

  it("writes the repository, runner and card pages, every link resolving to a file it wrote", async () => {
    const out = await makeTempDir("history-html-");
    const logger = createRecordingLogger();
    const dataDir = handle.target.kind === "pglite" ? handle.target.dataDir : "";
    const code = await main(["history", "--database", dataDir, "--repo", "Acme/Engine", "--html", out], {
      stdout: captureStream(),
      logger,
      env: {},
    });
    expect(code, JSON.stringify(logger.lines)).toBe(0);
    const cards = [
      ...seeded.mainRounds.map((round) => round.cardId),
      ...seeded.probes.map((probe) => probe.cardId),
      ...[...seeded.pulls.values()].map((pull) => pull.cardId),
    ];
    // Every card the store keeps: main's rounds and probes, the pull requests' and the earlier calibrations' cards.
    const written = readdirSync(join(out, "cards")).filter((file) => file.endsWith(".html"));
    expect(written.length).toBe(cards.length + 2);
    expect(logger.lines).toContainEqual({
      level: "info",
      message: `wrote ${written.length + 2} pages of acme/engine into ${out} (open index.html)`,
    });
    const pages = [join(out, "index.html"), join(out, "repos/acme/engine/index.html"), join(out, "repos/acme/engine/runners.html")];
    for (const id of cards) {
      pages.push(join(out, "cards", `${id}.html`));
      expect(JSON.parse(readFileSync(join(out, "cards", `${id}.json`), "utf8"))).toHaveProperty("roundScore");
    }
    for (const page of pages) {
      const html = readFileSync(page, "utf8");
      for (const link of localLinks(html)) expect(existsSync(resolve(dirname(page), link)), `${page} links ${link}`).toBe(true);
    }
    const repositoryPage = readFileSync(pages[1] ?? "", "utf8");
    for (const round of seeded.mainRounds) expect(repositoryPage).toContain(`cards/${round.cardId}.html`);
  });

  it("says which folder it needs", async () => {
    const logger = createRecordingLogger();
    const dataDir = handle.target.kind === "pglite" ? handle.target.dataDir : "";
    const code = await main(["history", "--database", dataDir, "--repo", "acme/engine", "--html", ""], {
      stdout: captureStream(),
      logger,
      env: {},
    });
    expect(code).toBe(2);
    expect(logger.lines).toContainEqual({
      level: "error",
      message: "speedgate history: --html: expected a folder to write the pages into",
    });
  });
});
