import type Dockerode from "dockerode";
import type { Logger } from "../logger.js";
import { dockerStatusCode } from "./docker-status-code.js";
import { LABEL_BASELINE_BASE } from "./prepare-commit-images.js";
import { LABEL_CREATED, LABEL_ROLE } from "./resource-labels.js";

/** A week: by then the base branch has moved on, and pull requests on an older base are few. */
export const DEFAULT_BASELINE_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

export interface BaselineSweep {
  removed: string[];
  /** Old enough, but a container or an image built on it (a kept candidate) still uses it. */
  inUse: string[];
  kept: number;
}

/**
 * Removes the baseline images cached per base commit (base/head mode) that were built more than
 * `maxAgeMs` ago. The rule is age since the image was made, not last use: Docker records no use, and
 * a base that old is rarely one a new pull request targets (a rebase picks a newer one, which gets its
 * own cached baseline). An image still used (by a container, or as the parent of another image) is
 * not forced out: it is listed and kept.
 */
export async function sweepBaselineImages(
  docker: Dockerode,
  options: { maxAgeMs: number; now?: number },
  logger: Logger,
): Promise<BaselineSweep> {
  const now = options.now ?? Date.now();
  const images = await docker.listImages({ filters: { label: [`${LABEL_ROLE}=baseline`, LABEL_BASELINE_BASE] } });
  const sweep: BaselineSweep = { removed: [], inUse: [], kept: 0 };
  for (const info of images) {
    const created = Date.parse(info.Labels?.[LABEL_CREATED] ?? "") || info.Created * 1000;
    if (now - created <= options.maxAgeMs) {
      sweep.kept += 1;
      continue;
    }
    const name = info.RepoTags?.find((tag) => tag !== "<none>:<none>") ?? info.Id.slice(0, 19);
    try {
      // Each tag, then the image: removing by ID refuses an image with several tags.
      for (const tag of info.RepoTags ?? []) if (tag !== "<none>:<none>") await docker.getImage(tag).remove({ noprune: false });
      await docker
        .getImage(info.Id)
        .remove()
        .catch((error: unknown) => {
          if (dockerStatusCode(error) !== 404) throw error;
        });
      sweep.removed.push(name);
    } catch (error) {
      if (dockerStatusCode(error) !== 409) throw error;
      logger.debug(`docker: kept ${name}: ${(error as Error).message}`);
      sweep.inUse.push(name);
    }
  }
  return sweep;
}
