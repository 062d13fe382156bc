import type { LoadedRound } from "../config/load-round-config.js";
import { resolveRoundEngines } from "../config/resolve-round-engines.js";
import { startsLikeBaseline } from "../scorecard/build-scorecard.js";

/**
 * Why the candidate of this round is the baseline engine itself, or null when anything sets them
 * apart: a patch with content, a pull request head with commits of its own, build or post-patch
 * steps, another command, environment or folder. Such a round measures the runner's noise, and its
 * card says so instead of showing the score as if a patch had earned it.
 */
export function describeUnchangedCandidate(round: LoadedRound): string | null {
  const { config } = round;
  const { candidate } = config;
  if (round.patch && round.patch.bytes.toString("utf8").trim() !== "") return null;
  if (round.commits && round.commits.head !== round.commits.base && round.commits.head !== round.commits.mergeBase) return null;
  if (candidate.postPatch.length > 0 || candidate.build !== undefined) return null;
  const engines = resolveRoundEngines(config, round.configPath, { commits: round.commits != null });
  if (engines.candidate.cwd !== engines.baseline.cwd) return null;
  if (!startsLikeBaseline(config)) return null;
  const what = round.commits
    ? `the pull request's head (${round.commits.head.slice(0, 12)}) adds nothing to its base`
    : round.patch
      ? "the patch is empty"
      : "the round has no patch";
  return (
    `${what}, and the candidate runs the baseline's image, command and environment: both seats ran the same engine, so the score is ` +
    `this runner's noise, not a speedup`
  );
}
