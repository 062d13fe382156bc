import { type Probot, run } from "probot";
import { AppOctokit } from "./app-octokit.js";
import { guardWebhookBodies, readWebhookBodyLimits } from "./guard-webhook-body.js";
import speedgateApp from "./index.js";

/*
 * Probot's standard environment: APP_ID, PRIVATE_KEY or PRIVATE_KEY_PATH, WEBHOOK_SECRET, PORT,
 * HOST, LOG_LEVEL, and GHE_HOST/GHE_PROTOCOL for another GitHub API (the tests' fake); and the
 * webhook body limits (bot/guard-webhook-body.ts): WEBHOOK_MAX_BODY_BYTES, WEBHOOK_BODY_TIMEOUT_MS,
 * WEBHOOK_MAX_BUFFERED_BYTES. Without APP_ID Probot serves its setup flow, which registers the app
 * from app.yml.
 */
const limits = readWebhookBodyLimits();

await run(
  (app: Probot) => {
    guardWebhookBodies(app, limits);
    speedgateApp(app);
  },
  { Octokit: AppOctokit },
);
