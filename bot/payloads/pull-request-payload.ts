import { z } from "zod";
import { repositorySchema, shaSchema } from "./parse-payload.js";

/**
 * What queuePullRequestCheck reads of a pull_request opened, synchronize or reopened delivery; the
 * rest of the pull request (author, links, repositories) is kept for toPullRequest, which tolerates its absence.
 */
export const pullRequestPayloadSchema = z.object({
  pull_request: z.looseObject(
    {
      number: z.number({ error: "expected the pull request's number" }).int({ error: "expected the pull request's number" }).positive({ error: "expected the pull request's number" }),
      head: z.looseObject({ sha: shaSchema("the head commit") }, { error: "expected the pull request's head" }),
    },
    { error: "expected the pull request" },
  ),
  repository: repositorySchema,
});

export type PullRequestPayload = z.output<typeof pullRequestPayloadSchema>;
