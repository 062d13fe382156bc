#!/usr/bin/env node
import { createRequire as __speedgateCreateRequire } from 'node:module';
import { dirname as __speedgateDirname } from 'node:path';
import { fileURLToPath as __speedgateFileURLToPath } from 'node:url';
const require = __speedgateCreateRequire(import.meta.url);
const __filename = __speedgateFileURLToPath(import.meta.url);
const __dirname = __speedgateDirname(__filename);
import {
  STATE,
  createActionsLogger,
  getState,
  info,
  warning
} from "./chunks/chunk-YTXLNRFZ.js";
import "./chunks/chunk-BY2EMTJO.js";

// action/cleanup.ts
async function sweepDocker(runId) {
  const { default: Dockerode } = await import("./chunks/docker-5FFNVCFZ.js");
  const { sweepResources } = await import("./chunks/sweep-resources-LSLESPCT.js");
  const counts = await sweepResources(new Dockerode(), { runId }, createActionsLogger());
  info(`Swept run ${runId}: ${counts.containers} containers, ${counts.networks} networks, ${counts.images} images`);
}
async function cleanUp() {
  try {
    const runId = getState(STATE.runId);
    const runtime = getState(STATE.runtime);
    if (!runId) {
      info("No round was started; nothing to clean up");
      return;
    }
    if (runtime !== "docker") {
      info(`Run ${runId} used the ${runtime || "unknown"} runtime; nothing to sweep`);
      return;
    }
    await sweepDocker(runId);
  } catch (error) {
    warning(`Cleanup after speedgate could not finish: ${error.message}`);
  }
}

// action/post.ts
await cleanUp();
