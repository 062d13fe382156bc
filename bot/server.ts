import { type Probot, run } from "probot";
import { AppOctokit } from "./app-octokit.js";
import { guardWebhookBodies, readWebhookBodyLimits } from "./guard-webhook-body.js";
import { createSpeedgateApp } from "./index.js";
import { type OpenedAppStore, openAppStore } from "./store/open-app-store.js";
import { probotLogger } from "./store/probot-logger.js";
import { redeliverHours, redeliverOnStart } from "./store/redeliver-on-start.js";

/*
 * Probot's standard environment: APP_ID, PRIVATE_KEY or PRIVATE_KEY_PATH, WEBHOOK_SECRET, PORT,
 * HOST, LOG_LEVEL, and GHE_HOST/GHE_PROTOCOL for another GitHub API (the tests' fake); the webhook
 * body limits (bot/guard-webhook-body.ts): WEBHOOK_MAX_BODY_BYTES, WEBHOOK_BODY_TIMEOUT_MS,
 * WEBHOOK_MAX_BUFFERED_BYTES, WEBHOOK_RESERVED_BYTES, WEBHOOK_SMALL_BODY_BYTES,
 * WEBHOOK_MAX_PEER_BUFFERED_BYTES, WEBHOOK_BODY_GRACE_MS; and the store (docs/deploying-the-app.md):
 * DATABASE_URL or SPEEDGATE_DATA_DIR, SPEEDGATE_WORKERS, SPEEDGATE_REDELIVER_HOURS,
 * SPEEDGATE_REDELIVER_AFTER_MS. Without APP_ID Probot serves its
 * setup flow, which registers the app from app.yml, and no database is opened.
 */
const limits = readWebhookBodyLimits();
const hours = redeliverHours(process.env);

let opened: OpenedAppStore | null = null;
let probot: Probot | null = null;
const signalsBefore = new Set(process.listeners("SIGINT"));

const server = await run(
  async (app: Probot) => {
    probot = app;
    // A delivery the app answers 5xx or 408 is asked for again once the store is open (bot/store/redeliver-after-refusal.ts).
    guardWebhookBodies(app, limits, (status) => opened?.refused.notice(status));
    // Before the server listens: the database is open and migrated before the first delivery.
    opened = await openAppStore(app, process.env);
    const store = opened.store;
    await createSpeedgateApp({ store: () => store })(app);
  },
  { Octokit: AppOctokit },
);

// Probot's own SIGINT handler exits at once; the app's stops in order instead.
for (const listener of process.listeners("SIGINT")) if (!signalsBefore.has(listener)) process.off("SIGINT", listener);
let stopping = false;
const stop = async (signal: string): Promise<void> => {
  if (stopping) return;
  stopping = true;
  const log = probot ? probotLogger(probot) : null;
  log?.info(`${signal}: stopping: no new deliveries, running jobs finish, stored ones wait for the next start`);
  try {
    await server.stop();
    await opened?.close();
    log?.info("stopped");
    process.exit(0);
  } catch (error) {
    log?.error(`stopping failed: ${(error as Error).message}`);
    process.exit(1);
  }
};
process.on("SIGTERM", () => void stop("SIGTERM"));
process.on("SIGINT", () => void stop("SIGINT"));

// The server listens now: deliveries GitHub could not make while the app was away can be sent again.
const started = opened as OpenedAppStore | null;
if (started && probot) {
  const log = probotLogger(probot);
  void redeliverOnStart(probot, started.database, { hours, logger: log });
}
