import type { z } from "zod";
import type { RepoRef } from "../../src/github/github-client.js";
import type { AppDeps, InstallationOctokit } from "./app-deps.js";
import type { repositorySchema } from "../payloads/parse-payload.js";
import type { JobContext } from "../work/app-work.js";
import { readJobPayload } from "../work/read-job-payload.js";

/** What every job handler starts from: its payload, the repository it is about, and that installation's client. */
export interface OpenedJob<P> {
  payload: P;
  repo: RepoRef;
  client: InstallationOctokit;
}

type JobPayloadSchema = z.ZodType<{ installationId: number; repository: z.output<typeof repositorySchema> }>;

/**
 * Reads a stored job's payload (null, logged, for one this version does not read) and authenticates as
 * the installation the delivery came from again: a job runs after its delivery, maybe in another process.
 */
export async function openJob<S extends JobPayloadSchema>(
  deps: AppDeps,
  schema: S,
  raw: unknown,
  job: JobContext,
): Promise<OpenedJob<z.output<S>> | null> {
  const payload = readJobPayload(schema, raw, job);
  if (!payload) return null;
  const repo: RepoRef = { owner: payload.repository.owner.login, repo: payload.repository.name };
  return { payload, repo, client: await deps.octokit(payload.installationId) };
}
