import { run } from "probot";
import { AppOctokit } from "./app-octokit.js";
import speedgateApp from "./index.js";

/*
 * Probot's standard environment: APP_ID, PRIVATE_KEY or PRIVATE_KEY_PATH, WEBHOOK_SECRET, PORT,
 * HOST, LOG_LEVEL, and GHE_HOST/GHE_PROTOCOL for another GitHub API (the tests' fake).
 */
await run(speedgateApp, { Octokit: AppOctokit });
