import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { silentLogger } from "../src/logger.js";
import { median } from "../src/scoring/median.js";
import { openDatabase } from "../src/store/open-database.js";
import { prepareDatabase } from "../src/store/prepare-database.js";
import { startWorkQueue } from "../src/store/work-queue.js";
import { OWNER, REPO, pullRequestEvent } from "../harness/fake-github/adjust-payloads.js";
import { FakeGitHub, type FakeResponse } from "../harness/fake-github/fake-github-server.js";
import { sendWebhook } from "../harness/fake-github/send-webhook.js";
import { serveRepository } from "../harness/fake-github/serve-repository.js";
import { startBotProcess } from "../harness/fake-github/start-bot-process.js";

/*
 * The app's start and stop (#39). Start: the embedded store opened, migrated and its job queue started, as
 * the app does before it takes deliveries, over an empty PGlite folder (the first start: PostgreSQL's initdb
 * in WASM) and over the folder that start left (every restart after). Deliveries are held for the store up
 * to SPEEDGATE_DELIVERY_HOLD_MS (9 s): which of the two that covers is the figure's point. Stop: SIGTERM to
 * `npm run bot` to its exit while a job's GitHub call never ends.
 */

export interface AppStartAndStopFigure {
  firstStartMs: number;
  restartMs: number;
  stopWithStuckJobMs: number;
  runs: number;
}

async function openStore(dataDir: string): Promise<number> {
  const started = performance.now();
  const database = await openDatabase({ kind: "pglite", dataDir }, { logger: silentLogger, maxConnections: 8 });
  await prepareDatabase(database, silentLogger);
  const queue = await startWorkQueue({ database, handlers: {}, logger: silentLogger });
  const took = performance.now() - started;
  await queue.stop();
  await database.close();
  return took;
}

async function stopWithStuckJob(): Promise<number> {
  const fake = new FakeGitHub();
  await fake.start();
  try {
    const appId = 4244;
    serveRepository(fake, {
      owner: OWNER,
      repo: REPO,
      appId,
      pulls: [{ number: 7, headSha: "d4".repeat(20), headRepo: `${OWNER}/${REPO}`, headBranch: "fast", author: "writer" }],
    });
    let reached: () => void = () => undefined;
    const stuck = new Promise<void>((resolve) => (reached = resolve));
    fake.on("POST", "/repos/{owner}/{repo}/check-runs", () => {
      reached();
      return new Promise<FakeResponse>(() => undefined);
    });
    // The app as the tests start it (harness/fake-github/start-bot-process.ts), over an empty PGlite folder of its own.
    const bot = await startBotProcess({ gheHost: fake.host, appId, secret: "bench-webhook-secret" });
    const payload = pullRequestEvent("opened", { number: 7, headSha: "d4".repeat(20), author: "writer" });
    await sendWebhook(bot.webhookUrl, { event: "pull_request", payload, secret: bot.secret });
    await stuck;
    const signalled = performance.now();
    await bot.stop();
    return performance.now() - signalled;
  } finally {
    await fake.stop();
  }
}

export async function measureAppStartAndStop(options: { runs?: number } = {}): Promise<AppStartAndStopFigure> {
  const runs = options.runs ?? 3;
  const first: number[] = [];
  const again: number[] = [];
  const stops: number[] = [];
  for (let run = 0; run < runs; run++) {
    const dataDir = await mkdtemp(join(tmpdir(), "speedgate-bench-app-start-"));
    try {
      first.push(await openStore(dataDir));
      again.push(await openStore(dataDir));
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
    stops.push(await stopWithStuckJob());
  }
  return {
    firstStartMs: median(first) ?? Number.NaN,
    restartMs: median(again) ?? Number.NaN,
    stopWithStuckJobMs: median(stops) ?? Number.NaN,
    runs,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const figure = await measureAppStartAndStop();
  console.log(
    `app store open and migrated (median of ${figure.runs}): first start ${figure.firstStartMs.toFixed(0)} ms, restart ` +
      `${figure.restartMs.toFixed(0)} ms; SIGTERM to exit with a job stuck in a GitHub call: ${figure.stopWithStuckJobMs.toFixed(0)} ms`,
  );
}
