import { z } from "zod";

/**
 * A pull request as the app's jobs carry it in their stored payload (src/github/find-pull-request-for-commit.ts's
 * PullRequestInfo), read back when the job runs.
 */
export const pullRequestInfoSchema = z.object({
  number: z.number().int().positive(),
  headSha: z.string(),
  headRepo: z.string().nullable(),
  headBranch: z.string().nullable(),
  baseRepo: z.string().nullable(),
  // Optional: jobs stored before base/head scoring carry none.
  baseSha: z.string().nullable().optional(),
  state: z.string(),
  htmlUrl: z.string(),
  author: z.string().nullable(),
});
