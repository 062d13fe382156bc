import type { z } from "zod";
import type { JobContext } from "./app-work.js";

/**
 * A job's payload checked against what its handler reads. It was written by the app's own intake, so a
 * mismatch means a job stored by another version of speedgate: logged and dropped, not retried.
 */
export function readJobPayload<S extends z.ZodType>(schema: S, raw: unknown, job: JobContext): z.output<S> | null {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  job.log.error(
    { work: job.key, problems: parsed.error.issues.slice(0, 5).map((issue) => `${issue.path.join(".")}: ${issue.message}`) },
    `dropping ${job.key}: its stored payload is not one this version reads`,
  );
  return null;
}
