import { silentLogger } from "../../../src/logger.js";
import { openDatabase } from "../../../src/store/open-database.js";
import { parseDatabaseTarget } from "../../../src/store/parse-database-target.js";
import { prepareDatabase } from "../../../src/store/prepare-database.js";
import { type WorkQueue, startWorkQueue } from "../../../src/store/work-queue.js";

/*
 * A replica in a process of its own, for the tests that kill one mid-job: it runs the queue on
 * SPEEDGATE_TEST_QUEUE_DATABASE (a server's URL or a PGlite folder) and prints "started <key>" when a job starts,
 * which then never ends. It prints it once the pool's death is provable (its lock held and its first beat
 * written), so a test that kills it then tests the proof, not a race with it.
 */
const database = await openDatabase(parseDatabaseTarget(process.env.SPEEDGATE_TEST_QUEUE_DATABASE ?? ""), { logger: silentLogger });
await prepareDatabase(database, silentLogger);
let markStarted: (queue: WorkQueue) => void = () => undefined;
const started = new Promise<WorkQueue>((resolve) => (markStarted = resolve));
const queue = await startWorkQueue({
  database,
  logger: silentLogger,
  pollIntervalMs: 100,
  handlers: {
    post: async (payload) => {
      await (await started).provable();
      process.stdout.write(`started ${String((payload as { key?: unknown }).key)}\n`);
      await new Promise<never>(() => undefined);
    },
  },
});
markStarted(queue);
// SPEEDGATE_TEST_QUEUE_JOBS: keys it stores itself, in one lane (a PGlite folder is served only inside this process).
for (const key of (process.env.SPEEDGATE_TEST_QUEUE_JOBS ?? "").split(",").filter(Boolean))
  await queue.enqueue({ task: "post", payload: { key }, key, lane: "o/r#9" });
process.stdout.write("ready\n");
