import { loadRound } from "../config/load-round-config.js";
import type { Logger } from "../logger.js";
import type { Scorecard } from "../scorecard/scorecard-schema.js";
import type { RoundProgressEvent } from "./round-progress.js";
import { runRound } from "./run-round.js";

/** Which two commits of main a watch round compares, and what people call it ("drift round", "step probe-8-1"). */
export interface CommitRoundRequest {
  base: string;
  head: string;
  label: string;
}

/** Runs one base/head round of two commits and gives its card: the watch and the bisection run every round through one of these. */
export type CommitRoundRunner = (request: CommitRoundRequest) => Promise<Scorecard>;

export interface LocalCommitRoundOptions {
  configPath: string;
  repoDir: string;
  logger: Logger;
  signal: AbortSignal;
  onProgress?: (label: string, event: RoundProgressEvent) => void;
}

/**
 * Rounds on this machine, as `speedgate run --base --head` runs them: the round config loaded again for
 * each pair of commits (base/head mode, the same machinery as a pull request's round), then runRound.
 */
export function localCommitRounds(options: LocalCommitRoundOptions): CommitRoundRunner {
  return async ({ base, head, label }) => {
    const round = await loadRound(options.configPath, {
      commits: { base, head, repoDir: options.repoDir, labels: { base: `${label}'s base`, head: `${label}'s head`, repo: "--repo" } },
    });
    options.logger.info(`${label}: ${head.slice(0, 12)} against ${base.slice(0, 12)}`);
    return await runRound({
      round,
      logger: options.logger,
      signal: options.signal,
      ...(options.onProgress ? { onProgress: (event: RoundProgressEvent) => options.onProgress?.(label, event) } : {}),
    });
  };
}
