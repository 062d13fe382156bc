#!/usr/bin/env node
import { createRequire as __speedgateCreateRequire } from 'node:module';
import { dirname as __speedgateDirname } from 'node:path';
import { fileURLToPath as __speedgateFileURLToPath } from 'node:url';
const require = __speedgateCreateRequire(import.meta.url);
const __filename = __speedgateFileURLToPath(import.meta.url);
const __dirname = __speedgateDirname(__filename);

// src/docker/sweep-resources.ts
import { hostname as hostname2 } from "node:os";

// src/docker/resource-labels.ts
import { hostname } from "node:os";

// src/read-process-start-time.ts
import { readFileSync } from "node:fs";
function readProcessStartTime(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const afterName = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return afterName[19] ?? null;
  } catch {
    return null;
  }
}

// src/docker/resource-labels.ts
var LABEL_RUN_ID = "speedgate.run-id";
var LABEL_ROLE = "speedgate.role";
var LABEL_PID = "speedgate.pid";
var LABEL_PID_START = "speedgate.pid-start";
var LABEL_HOST = "speedgate.host";
var LABEL_CREATED = "speedgate.created";
function makeResourceLabels(runId, role) {
  return {
    [LABEL_RUN_ID]: runId,
    [LABEL_ROLE]: role,
    [LABEL_PID]: String(process.pid),
    [LABEL_PID_START]: readProcessStartTime(process.pid) ?? "",
    [LABEL_HOST]: hostname(),
    [LABEL_CREATED]: (/* @__PURE__ */ new Date()).toISOString()
  };
}

// src/docker/docker-status-code.ts
function dockerStatusCode(error) {
  const code = error?.statusCode;
  return typeof code === "number" ? code : null;
}

// src/is-process-alive.ts
import { readFileSync as readFileSync2 } from "node:fs";
function isProcessAlive(pid) {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return error.code === "EPERM";
  }
  return !isZombie(pid);
}
function isZombie(pid) {
  let stat;
  try {
    stat = readFileSync2(`/proc/${pid}/stat`, "utf8");
  } catch {
    return false;
  }
  return stat.slice(stat.lastIndexOf(")") + 1).trim().startsWith("Z");
}

// src/docker/sweep-resources.ts
var ROLE_RUN_BASELINE = "baseline-run";
var DEFAULT_STALE_AFTER_MS = 24 * 60 * 60 * 1e3;
function isRunGone(labels, now, staleAfterMs) {
  const pid = Number(labels[LABEL_PID]);
  if (labels[LABEL_HOST] === hostname2() && Number.isInteger(pid) && pid > 0) {
    if (!isProcessAlive(pid)) return true;
    const startedAt = labels[LABEL_PID_START];
    const current = readProcessStartTime(pid);
    return Boolean(startedAt) && current !== null && current !== startedAt;
  }
  const created = Date.parse(labels[LABEL_CREATED] ?? "");
  return Number.isFinite(created) && now - created > staleAfterMs;
}
async function sweepResources(docker, filter, logger, options = {}) {
  const labelFilter = "runId" in filter ? [`${LABEL_RUN_ID}=${filter.runId}`] : [LABEL_RUN_ID];
  const now = Date.now();
  const staleAfterMs = options.staleAfterMs ?? DEFAULT_STALE_AFTER_MS;
  const selected = (labels) => "runId" in filter || isRunGone(labels ?? {}, now, staleAfterMs);
  const counts = { containers: 0, networks: 0, images: 0 };
  const problems = [];
  const containers = await docker.listContainers({ all: true, filters: { label: labelFilter } });
  await Promise.all(
    containers.filter((info) => selected(info.Labels)).map(async (info) => {
      const container = docker.getContainer(info.Id);
      try {
        if (info.State === "running") await container.stop({ t: 2 }).catch(() => void 0);
        await container.remove({ force: true, v: true });
        counts.containers += 1;
      } catch (error) {
        if (dockerStatusCode(error) !== 404) problems.push(`container ${info.Id.slice(0, 12)}: ${error.message}`);
      }
    })
  );
  const networks = await docker.listNetworks({ filters: { label: labelFilter } });
  for (const info of networks.filter((network) => selected(network.Labels))) {
    try {
      await docker.getNetwork(info.Id).remove();
      counts.networks += 1;
    } catch (error) {
      if (dockerStatusCode(error) !== 404) problems.push(`network ${info.Name}: ${error.message}`);
    }
  }
  if (!options.keepCandidateImages) {
    const images = await docker.listImages({ filters: { label: [...labelFilter, `${LABEL_ROLE}=candidate`] } });
    for (const info of images.filter((image) => selected(image.Labels))) {
      try {
        await docker.getImage(info.Id).remove({ force: true });
        counts.images += 1;
      } catch (error) {
        if (dockerStatusCode(error) !== 404) problems.push(`image ${info.Id.slice(0, 19)}: ${error.message}`);
      }
    }
  }
  const runBaselines = await docker.listImages({ filters: { label: [...labelFilter, `${LABEL_ROLE}=${ROLE_RUN_BASELINE}`] } });
  for (const info of runBaselines.filter((image) => selected(image.Labels))) {
    try {
      await docker.getImage(info.Id).remove({ force: true });
      counts.images += 1;
    } catch (error) {
      const status = dockerStatusCode(error);
      if (status !== 404 && status !== 409) problems.push(`image ${info.Id.slice(0, 19)}: ${error.message}`);
    }
  }
  if (problems.length > 0) {
    const message = `docker: could not remove ${problems.length} resource(s): ${problems.join("; ")}`;
    logger.error(message);
    throw new Error(message);
  }
  return counts;
}

export {
  dockerStatusCode,
  readProcessStartTime,
  LABEL_RUN_ID,
  LABEL_ROLE,
  LABEL_CREATED,
  makeResourceLabels,
  isProcessAlive,
  ROLE_RUN_BASELINE,
  DEFAULT_STALE_AFTER_MS,
  isRunGone,
  sweepResources
};
