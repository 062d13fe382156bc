import { spawn } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { silentLogger } from "../src/logger.js";
import { median } from "../src/scoring/median.js";
import { openDatabase } from "../src/store/open-database.js";
import { prepareDatabase } from "../src/store/prepare-database.js";
import { startWorkQueue } from "../src/store/work-queue.js";
import { OWNER, REPO, pullRequestEvent } from "../harness/fake-github/adjust-payloads.js";
import { FakeGitHub, type FakeResponse } from "../harness/fake-github/fake-github-server.js";
import { sendWebhook } from "../harness/fake-github/send-webhook.js";
import { serveRepository } from "../harness/fake-github/serve-repository.js";

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

const ROOT = fileURLToPath(new URL("../", import.meta.url));

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  server.close();
  await once(server, "close");
  if (address === null || typeof address === "string") throw new Error("no port to listen on");
  return address.port;
}

/** `npm run bot` as deployed, against the fake; resolves once it takes deliveries, with what signals it and waits for its exit. */
async function startApp(
  gheHost: string,
  appId: number,
  dataDir: string,
): Promise<{ webhookUrl: string; secret: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const secret = "bench-webhook-secret";
  const privateKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs1", format: "pem" }).toString();
  const child = spawn("npm", ["run", "--silent", "bot"], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TMPDIR: process.env.TMPDIR,
      APP_ID: String(appId),
      PRIVATE_KEY: privateKey,
      WEBHOOK_SECRET: secret,
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_FORMAT: "json",
      GHE_HOST: gheHost,
      GHE_PROTOCOL: "http",
      SPEEDGATE_DATA_DIR: dataDir,
      SPEEDGATE_REDELIVER_HOURS: "0",
      SPEEDGATE_REDELIVER_AFTER_MS: "0",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  // The app writes to the same pipes as npm: it is gone when they close.
  const closed = Promise.all([once(child.stdout, "close"), once(child.stderr, "close")]);
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString("utf8");
      if (output.includes("taking deliveries")) resolve();
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => reject(new Error(`the app exited (${code}) before it was ready:\n${output}`)));
  });
  return {
    webhookUrl: `http://127.0.0.1:${port}/api/github/webhooks`,
    secret,
    stop: async () => {
      child.kill("SIGTERM");
      await closed;
    },
  };
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
    const dataDir = await mkdtemp(join(tmpdir(), "speedgate-bench-app-stop-"));
    const bot = await startApp(fake.host, appId, dataDir).catch(async (error: unknown) => {
      await rm(dataDir, { recursive: true, force: true });
      throw error;
    });
    const payload = pullRequestEvent("opened", { number: 7, headSha: "d4".repeat(20), author: "writer" });
    await sendWebhook(bot.webhookUrl, { event: "pull_request", payload, secret: bot.secret });
    await stuck;
    const signalled = performance.now();
    await bot.stop();
    const took = performance.now() - signalled;
    await rm(dataDir, { recursive: true, force: true });
    return took;
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
