import { hostname } from "node:os";
import type Dockerode from "dockerode";
import type { Logger } from "../logger.js";
import { LABEL_CREATED, LABEL_HOST, LABEL_PID, LABEL_PID_START, LABEL_ROLE, LABEL_RUN_ID } from "./resource-labels.js";
import { readProcessStartTime } from "../read-process-start-time.js";
import { dockerStatusCode } from "./docker-status-code.js";

/** The role of a baseline overlay built for one run only (source.cacheBaseline: false): swept with the run. */
export const ROLE_RUN_BASELINE = "baseline-run";
import { isProcessAlive } from "../is-process-alive.js";

export interface SweepCounts {
  containers: number;
  networks: number;
  images: number;
}

export interface SweepOptions {
  /** Keep the candidate images of the run (a later run with the same patch then builds from cache). */
  keepCandidateImages?: boolean;
  /** For --stale: resources made on another host, or without a pid, count as stale after this long. */
  staleAfterMs?: number;
}

/** A day: no round (build plus two engines plus benchmark) is expected to take that long. */
export const DEFAULT_STALE_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * Whether the run that created a resource is gone. On this host the creating process is checked by
 * pid and by its start time (a reused pid is another process); elsewhere, or when the labels are
 * missing, only age can tell, so the resource must be older than `staleAfterMs`.
 */
export function isRunGone(labels: Record<string, string>, now: number, staleAfterMs: number): boolean {
  const pid = Number(labels[LABEL_PID]);
  if (labels[LABEL_HOST] === hostname() && Number.isInteger(pid) && pid > 0) {
    if (!isProcessAlive(pid)) return true;
    const startedAt = labels[LABEL_PID_START];
    const current = readProcessStartTime(pid);
    return Boolean(startedAt) && current !== null && current !== startedAt;
  }
  const created = Date.parse(labels[LABEL_CREATED] ?? "");
  return Number.isFinite(created) && now - created > staleAfterMs;
}

/**
 * Removes the containers (stopped first, then by force), networks and candidate images labelled
 * with a run: one run by id, or every run whose process is gone (`stale`). Baseline images are
 * kept, since they are shared by runs and expensive to rebuild.
 */
export async function sweepResources(
  docker: Dockerode,
  filter: { runId: string } | { stale: true },
  logger: Logger,
  options: SweepOptions = {},
): Promise<SweepCounts> {
  const labelFilter = "runId" in filter ? [`${LABEL_RUN_ID}=${filter.runId}`] : [LABEL_RUN_ID];
  const now = Date.now();
  const staleAfterMs = options.staleAfterMs ?? DEFAULT_STALE_AFTER_MS;
  const selected = (labels: Record<string, string> | undefined): boolean => "runId" in filter || isRunGone(labels ?? {}, now, staleAfterMs);
  const counts: SweepCounts = { containers: 0, networks: 0, images: 0 };
  const problems: string[] = [];

  const containers = await docker.listContainers({ all: true, filters: { label: labelFilter } });
  await Promise.all(
    containers
      .filter((info) => selected(info.Labels))
      .map(async (info) => {
        const container = docker.getContainer(info.Id);
        try {
          if (info.State === "running") await container.stop({ t: 2 }).catch(() => undefined);
          await container.remove({ force: true, v: true });
          counts.containers += 1;
        } catch (error) {
          if (dockerStatusCode(error) !== 404) problems.push(`container ${info.Id.slice(0, 12)}: ${(error as Error).message}`);
        }
      }),
  );

  const networks = await docker.listNetworks({ filters: { label: labelFilter } });
  for (const info of networks.filter((network) => selected(network.Labels))) {
    try {
      await docker.getNetwork(info.Id).remove();
      counts.networks += 1;
    } catch (error) {
      if (dockerStatusCode(error) !== 404) problems.push(`network ${info.Name}: ${(error as Error).message}`);
    }
  }

  if (!options.keepCandidateImages) {
    const images = await docker.listImages({ filters: { label: [...labelFilter, `${LABEL_ROLE}=candidate`] } });
    for (const info of images.filter((image) => selected(image.Labels))) {
      try {
        await docker.getImage(info.Id).remove({ force: true });
        counts.images += 1;
      } catch (error) {
        if (dockerStatusCode(error) !== 404) problems.push(`image ${info.Id.slice(0, 19)}: ${(error as Error).message}`);
      }
    }
  }

  // A baseline overlay made for one run only (source.cacheBaseline: false) goes with the run, after the candidates built on it.
  const runBaselines = await docker.listImages({ filters: { label: [...labelFilter, `${LABEL_ROLE}=${ROLE_RUN_BASELINE}`] } });
  for (const info of runBaselines.filter((image) => selected(image.Labels))) {
    try {
      await docker.getImage(info.Id).remove({ force: true });
      counts.images += 1;
    } catch (error) {
      // 409: a kept candidate image is built on it; it goes when that one does.
      const status = dockerStatusCode(error);
      if (status !== 404 && status !== 409) problems.push(`image ${info.Id.slice(0, 19)}: ${(error as Error).message}`);
    }
  }

  if (problems.length > 0) {
    const message = `docker: could not remove ${problems.length} resource(s): ${problems.join("; ")}`;
    logger.error(message);
    throw new Error(message);
  }
  return counts;
}
