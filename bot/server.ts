import { type Probot, run } from "probot";
import { AppOctokit } from "./app-octokit.js";
import { AppReadiness, READY_PATH, holdDeliveriesUntilReady, readDeliveryHold, serveReadiness } from "./app-readiness.js";
import { guardWebhookBodies, readWebhookBodyLimits } from "./guard-webhook-body.js";
import { createSpeedgateApp } from "./index.js";
import { pointSetupAtWebhookPath } from "./point-setup-at-webhook-path.js";
import { type OpenedAppStore, openAppStore } from "./store/open-app-store.js";
import { probotLogger } from "./store/probot-logger.js";
import { redeliverHours, redeliverOnStart } from "./store/redeliver-on-start.js";
import { readPagesSettings } from "./read-pages-settings.js";
import { readPageAssets } from "./pages/read-page-assets.js";
import { RepositoryAccess } from "./pages/repository-access.js";
import { githubAccessSource, githubUrls } from "./pages/github-access-source.js";
import { serveHistoryPages } from "./pages/serve-history-pages.js";

/*
 * Probot's standard environment: APP_ID, PRIVATE_KEY or PRIVATE_KEY_PATH, WEBHOOK_SECRET, PORT,
 * HOST, LOG_LEVEL, and GHE_HOST/GHE_PROTOCOL for another GitHub API (the tests' fake); the webhook
 * body limits (bot/guard-webhook-body.ts): WEBHOOK_MAX_BODY_BYTES, WEBHOOK_BODY_TIMEOUT_MS,
 * WEBHOOK_MAX_BUFFERED_BYTES, WEBHOOK_RESERVED_BYTES, WEBHOOK_SMALL_BODY_BYTES,
 * WEBHOOK_MAX_PEER_BUFFERED_BYTES, WEBHOOK_BODY_GRACE_MS; and the store (docs/deploying-the-app.md):
 * DATABASE_URL or SPEEDGATE_DATA_DIR, SPEEDGATE_WORKERS, SPEEDGATE_REDELIVER_HOURS,
 * SPEEDGATE_REDELIVER_AFTER_MS, SPEEDGATE_DELIVERY_HOLD_MS; the history pages (bot/read-pages-settings.ts):
 * SPEEDGATE_PAGES_URL, GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET, SPEEDGATE_SESSION_SECRET,
 * SPEEDGATE_PAGES_ACCESS_CACHE_MS. Without APP_ID Probot serves its setup flow, which registers the app
 * from app.yml with the webhook path, and no database is opened. Run it as
 * `node --import tsx bot/server.ts` (or `npm run bot`, which execs that): the signal must reach this
 * process, not a shell or a loader's parent that would leave it running.
 */
const limits = readWebhookBodyLimits();
const hours = redeliverHours(process.env);
const deliveryHold = readDeliveryHold(process.env);
const pages = readPagesSettings(process.env);
const pageAssets = pages ? await readPageAssets() : null;

let opened: OpenedAppStore | null = null;
let probot: Probot | null = null;
const readiness = new AppReadiness();
let opening: Promise<void> = Promise.resolve();
const signalsBefore = new Set(process.listeners("SIGINT"));

/** Opens and migrates the database, then takes deliveries; the server already answers /ping and /ready. */
async function openApp(app: Probot): Promise<void> {
  const log = probotLogger(app);
  try {
    opened = await openAppStore(app, process.env);
    const store = opened.store;
    await createSpeedgateApp({ store: () => store })(app);
  } catch (error) {
    readiness.markFailed();
    log.error(`not ready: the database could not be opened: ${(error as Error).message}`);
    process.exit(1);
  }
  readiness.markReady();
  // SIGTERM came while the store opened: it is closed again at once, and nothing is asked of GitHub.
  if (readiness.state === "stopping") return;
  log.info(
    `ready: ${opened.database.description} open and migrated ${readiness.secondsSinceStart().toFixed(1)} s after start; taking ` +
      `deliveries (GET ${READY_PATH} answers 200)`,
  );
  // Deliveries GitHub could not make while the app was away (or starting) can be sent again.
  void redeliverOnStart(app, opened.database, { hours, logger: log });
}

const server = await run(
  (app: Probot, { addHandler }) => {
    probot = app;
    // A delivery the app answers 5xx or 408 is asked for again once the store is open (bot/store/redeliver-after-refusal.ts).
    guardWebhookBodies(app, limits, (status) => opened?.refused.notice(status));
    holdDeliveriesUntilReady(app, readiness, deliveryHold);
    addHandler(serveReadiness(readiness));
    if (pages && pageAssets) {
      const github = githubUrls(process.env);
      addHandler(
        serveHistoryPages({
          settings: pages,
          database: () => (readiness.state === "ready" ? (opened?.database.pool ?? null) : null),
          access: new RepositoryAccess(githubAccessSource(app, github.apiUrl), pages.accessCacheMs),
          github,
          assets: pageAssets,
          log: probotLogger(app),
        }),
      );
    }
    // Not awaited: the server listens first, so a slow database start (PGlite on a busy machine) shows as
    // 503 "starting" on /ready instead of a port that does not answer; deliveries wait for it, within a bound.
    opening = openApp(app);
  },
  { Octokit: AppOctokit },
);
if (!probot) pointSetupAtWebhookPath(process.env.WEBHOOK_PATH ?? "/api/github/webhooks");

// Probot's own SIGINT handler exits at once; the app's stops in order instead.
for (const listener of process.listeners("SIGINT")) if (!signalsBefore.has(listener)) process.off("SIGINT", listener);

/*
 * SIGTERM is followed by SIGKILL after 10 s under Docker (30 s under Kubernetes): the app is gone within 5 s,
 * whatever its jobs are doing. Held deliveries are answered 503 at once (GitHub keeps them as failed and the
 * next start asks for them), the server gets a second to answer what it is reading, running jobs get two to
 * finish, and one still running after that (a GitHub call stuck in retries) is handed back to the queue to
 * run again at the next start: the jobs are rows, and re-running one is what they are made for.
 */
const STOP_WITHIN_MS = 5_000;
const SERVER_CLOSE_MS = 1_000;
const JOB_GRACE_MS = 2_000;
/** Past it, what is still closing is left to the exit: PGlite's lock is taken over by the next start, its WAL replayed. */
const GIVE_UP_AFTER_MS = STOP_WITHIN_MS - 500;

const within = async (work: Promise<unknown>, ms: number): Promise<void> => {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
};

let stopping = false;
const stop = async (signal: string): Promise<void> => {
  if (stopping) return;
  stopping = true;
  const log = probot ? probotLogger(probot) : null;
  const started = Date.now();
  log?.info(
    `${signal}: stopping within ${STOP_WITHIN_MS / 1000} s: no new deliveries, running jobs get ${JOB_GRACE_MS / 1000} s to finish, ` +
      "stored and unfinished ones run at the next start",
  );
  setTimeout(() => {
    log?.error(`stopping took longer than ${GIVE_UP_AFTER_MS / 1000} s; exiting with the store not closed (the next start recovers it)`);
    process.exit(1);
  }, GIVE_UP_AFTER_MS).unref();
  readiness.markStopping();
  // The store is closed even when the server's stop fails: it owns the database lock and PGlite's socket folder.
  const failures: string[] = [];
  await within(
    server.stop().catch((error: unknown) => failures.push(`the server: ${(error as Error).message}`)),
    SERVER_CLOSE_MS,
  );
  // Stopped while starting: let the database finish opening, then close it in order.
  await opening.catch((error: unknown) => failures.push(`opening the store: ${(error as Error).message}`));
  await opened?.close({ graceMs: JOB_GRACE_MS }).catch((error: unknown) => failures.push(`the store: ${(error as Error).message}`));
  if (failures.length > 0) {
    log?.error(`stopping failed: ${failures.join("; ")}`);
    process.exit(1);
  }
  log?.info(`stopped in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  process.exit(0);
};
process.on("SIGTERM", () => void stop("SIGTERM"));
process.on("SIGINT", () => void stop("SIGINT"));
