import { formatHistoryCsv, formatHistoryTable } from "../../history/format-history.js";
import { CARD_HISTORY_SCHEMA_VERSION, listCards } from "../../store/card-history.js";
import { CARD_DOCUMENTS_SCHEMA_VERSION } from "../../store/card-documents.js";
import { writeHistorySite } from "../../history/write-history-site.js";
import { readSchemaVersion } from "../../store/migrate-database.js";
import { openDatabase } from "../../store/open-database.js";
import { parseDatabaseTarget } from "../../store/parse-database-target.js";
import { type Command, UsageError } from "../command.js";
import { parseCommandArgs } from "../parse-command-args.js";

const REPOSITORY = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;

function positiveInteger(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new UsageError(`speedgate history: --${name}: expected a positive whole number, got ${JSON.stringify(value)}`);
  return Number(value);
}

export const historyCommand: Command = {
  name: "history",
  summary: "print the score cards the app recorded for a repository",
  usage:
    "speedgate history --database <postgres://… | PGlite folder> --repo <owner/repo> [--pr N] [--limit N] [--format table|csv] " +
    "[--html DIR]",
  details: `Options:
  --database <url | folder>  the app's PostgreSQL URL or its PGlite folder (default: DATABASE_URL);
                             a PGlite folder can be read only while the app is stopped
  --repo <owner/repo>        the repository whose cards to print
  --pr N                     only this pull request's cards
  --limit N                  at most N rows (the newest)
  --format table|csv         an aligned table (default) or CSV
  --html DIR                 write the app's history pages of the repository as static files into DIR
                             (main's trend, the open pull requests, the runners, every card), to publish
                             with GitHub Pages; prints nothing else

Exit codes: 0 printed (also when no card was recorded); 2 a database that cannot be read, or bad usage`,
  async run(args, context) {
    const { values } = parseCommandArgs("history", args, {
      database: { type: "string" },
      repo: { type: "string" },
      pr: { type: "string" },
      limit: { type: "string" },
      format: { type: "string", default: "table" },
      html: { type: "string" },
    });
    const database = values.database ?? context.env.DATABASE_URL;
    if (!database)
      throw new UsageError("speedgate history: --database is required (a postgres:// URL or the app's PGlite folder), or set DATABASE_URL");
    if (!values.repo || !REPOSITORY.test(values.repo)) {
      throw new UsageError(
        `speedgate history: --repo: expected owner/repo, got ${values.repo === undefined ? "nothing" : JSON.stringify(values.repo)}`,
      );
    }
    if (values.format !== "table" && values.format !== "csv") {
      throw new UsageError(`speedgate history: --format: expected table or csv, got ${JSON.stringify(values.format)}`);
    }
    const pullRequest = positiveInteger("pr", values.pr);
    const limit = positiveInteger("limit", values.limit);
    let target;
    try {
      target = parseDatabaseTarget(database);
    } catch (error) {
      throw new UsageError(`speedgate history: --database: ${(error as Error).message}`);
    }
    let opened;
    try {
      opened = await openDatabase(target, {
        logger: context.logger,
        maxConnections: 1,
        applicationName: "speedgate history",
        create: false,
      });
    } catch (error) {
      throw new UsageError(`speedgate history: --database: ${(error as Error).message}`);
    }
    try {
      const version = await readSchemaVersion(opened.pool);
      if (version < CARD_HISTORY_SCHEMA_VERSION) {
        throw new UsageError(
          version === 0
            ? `speedgate history: ${opened.description} holds no speedgate data: the app has not run on it`
            : `speedgate history: ${opened.description} is at schema version ${version}, older than the card history needs ` +
                `(${CARD_HISTORY_SCHEMA_VERSION}): start the app once to migrate it`,
        );
      }
      if (values.html !== undefined) {
        if (values.html === "") throw new UsageError("speedgate history: --html: expected a folder to write the pages into");
        if (version < CARD_DOCUMENTS_SCHEMA_VERSION) {
          throw new UsageError(
            `speedgate history: --html: ${opened.description} is at schema version ${version}, older than the pages need ` +
              `(${CARD_DOCUMENTS_SCHEMA_VERSION}): start the app once to migrate it`,
          );
        }
        const { pages } = await writeHistorySite(opened.pool, values.repo, values.html);
        context.logger.info(`wrote ${pages} pages of ${values.repo.toLowerCase()} into ${values.html} (open index.html)`);
        return 0;
      }
      const cards = await listCards(opened.pool, {
        repository: values.repo,
        ...(pullRequest ? { pullRequest } : {}),
        ...(limit ? { limit } : {}),
      });
      context.stdout.write(values.format === "csv" ? formatHistoryCsv(cards) : formatHistoryTable(cards));
      // The table says so itself; CSV stays machine-readable (a header alone), so stderr tells the person.
      if (cards.length === 0 && values.format === "csv")
        context.logger.info(`no cards recorded for ${values.repo}${pullRequest ? `#${pullRequest}` : ""} in ${opened.description}`);
      return 0;
    } finally {
      await opened.close();
    }
  },
};
