import type { Scorecard } from "../scorecard/scorecard-schema.js";
import type { GitHubClient, RepoRef } from "./github-client.js";
import { ArtifactError, DEFAULT_ZIP_LIMITS, type ZipLimits, readScorecardZip } from "./read-scorecard-zip.js";

export const SCORECARD_ARTIFACT = "speedgate-scorecard";

interface ArtifactInfo {
  id: number;
  name: string;
  sizeInBytes: number;
  expired: boolean;
}

function toArtifact(value: unknown): ArtifactInfo | null {
  if (typeof value !== "object" || value === null) return null;
  const record = value as { id?: unknown; name?: unknown; size_in_bytes?: unknown; expired?: unknown };
  if (typeof record.id !== "number" || typeof record.name !== "string") return null;
  return {
    id: record.id,
    name: record.name,
    sizeInBytes: typeof record.size_in_bytes === "number" ? record.size_in_bytes : Number.POSITIVE_INFINITY,
    expired: record.expired === true,
  };
}

function toBytes(data: unknown): Uint8Array {
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  throw new ArtifactError("the artifact download did not return binary data");
}

/**
 * The card a workflow run uploaded, or null when the run uploaded none. GitHub's own size figure is
 * checked before downloading, and the bytes again after, so an oversized artifact is never inflated.
 */
export async function downloadScorecardArtifact(
  client: GitHubClient,
  options: RepoRef & { runId: number; limits?: ZipLimits },
): Promise<Scorecard | null> {
  const downloaded = await downloadScorecardZip(client, options);
  return downloaded ? readScorecardZip(downloaded.zip, downloaded.source, options.limits ?? DEFAULT_ZIP_LIMITS) : null;
}

export interface DownloadedZip {
  zip: Uint8Array;
  /** Names the artifact in errors: "artifact speedgate-scorecard of run N". */
  source: string;
}

/**
 * The zip of the run's card artifact, not yet read: the app reads it off its event loop
 * (bot/card-worker.ts), since a large card costs seconds of work. Null when the run uploaded none.
 */
export async function downloadScorecardZip(
  client: GitHubClient,
  options: RepoRef & { runId: number; limits?: ZipLimits },
): Promise<DownloadedZip | null> {
  const limits = options.limits ?? DEFAULT_ZIP_LIMITS;
  const listed = await client.request("GET /repos/{owner}/{repo}/actions/runs/{run_id}/artifacts", {
    owner: options.owner,
    repo: options.repo,
    run_id: options.runId,
    name: SCORECARD_ARTIFACT,
    per_page: 100,
  });
  const data = listed.data as { artifacts?: unknown };
  const artifacts = (Array.isArray(data.artifacts) ? data.artifacts : [])
    .map(toArtifact)
    .filter((artifact): artifact is ArtifactInfo => artifact !== null && artifact.name === SCORECARD_ARTIFACT && !artifact.expired);
  const source = `artifact ${SCORECARD_ARTIFACT} of run ${options.runId}`;
  if (artifacts.length === 0) return null;
  if (artifacts.length > 1) throw new ArtifactError(`${source}: the run uploaded ${artifacts.length} artifacts of that name`);
  const [artifact] = artifacts as [ArtifactInfo];
  if (artifact.sizeInBytes > limits.maxZipBytes) {
    throw new ArtifactError(`${source}: the artifact is ${artifact.sizeInBytes} bytes, over the ${limits.maxZipBytes}-byte limit`);
  }
  // GitHub answers 302 with a short-lived URL; Octokit follows it (and drops the token for another host).
  const download = await client.request("GET /repos/{owner}/{repo}/actions/artifacts/{artifact_id}/{archive_format}", {
    owner: options.owner,
    repo: options.repo,
    artifact_id: artifact.id,
    archive_format: "zip",
  });
  const zip = toBytes(download.data);
  if (zip.byteLength > limits.maxZipBytes) {
    throw new ArtifactError(`${source}: the artifact is ${zip.byteLength} bytes, over the ${limits.maxZipBytes}-byte limit`);
  }
  return { zip, source };
}
