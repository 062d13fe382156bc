import { silentLogger } from "../../../src/logger.js";
import { openDatabase } from "../../../src/store/open-database.js";
import { parseDatabaseTarget } from "../../../src/store/parse-database-target.js";
import { startWorkQueue } from "../../../src/store/work-queue.js";

/*
 * A replica in a process of its own, for the test that kills one mid-job: it runs the queue on
 * SPEEDGATE_TEST_QUEUE_DATABASE and prints "started <key>" when a job starts, which then never ends.
 */
const database = await openDatabase(parseDatabaseTarget(process.env.SPEEDGATE_TEST_QUEUE_DATABASE ?? ""), { logger: silentLogger });
await startWorkQueue({
  database,
  logger: silentLogger,
  pollIntervalMs: 100,
  handlers: {
    post: async (payload) => {
      process.stdout.write(`started ${String((payload as { key?: unknown }).key)}\n`);
      await new Promise<never>(() => undefined);
    },
  },
});
process.stdout.write("ready\n");
