import { formatTimes } from "../scorecard/render/describe-card.js";

/** What the trend needs of a commit's card. */
export interface TrendPoint {
  headSha: string;
  roundScore: number | null;
  gatePassed: boolean;
  failureKind: string | null;
}

export interface CommitTrendOptions {
  /** The commit whose card carries the line; its point comes last, marked as this commit. */
  currentSha: string;
  /** At most this many points; older ones are elided with "…". */
  limit?: number;
}

const DEFAULT_LIMIT = 8;

function describePoint(point: TrendPoint): string {
  if (point.failureKind !== null) return `✗ ${point.failureKind.replace(/_/g, " ")}`;
  return formatTimes(point.roundScore);
}

/**
 * The "earlier commits" line of a pull request's card: each commit's score, oldest first, ending with
 * this commit's, such as "1.05× (`1a2b3c4`) → 1.12× (`5d6e7f8`) → **1.18×** (this commit)". Null when
 * this is the pull request's first scored commit: there is no trend to show.
 */
export function renderCommitTrend(points: readonly TrendPoint[], options: CommitTrendOptions): string | null {
  const limit = Math.max(2, options.limit ?? DEFAULT_LIMIT);
  const earlier = points.filter((point) => point.headSha !== options.currentSha);
  const current = points.find((point) => point.headSha === options.currentSha);
  if (earlier.length === 0) return null;
  const room = current ? limit - 1 : limit;
  const shown = earlier.slice(-room);
  const parts = shown.map((point) => `${describePoint(point)} (\`${point.headSha.slice(0, 7)}\`)`);
  if (earlier.length > shown.length) parts.unshift("…");
  if (current) parts.push(`**${describePoint(current)}** (this commit)`);
  return `Earlier commits: ${parts.join(" → ")}`;
}
