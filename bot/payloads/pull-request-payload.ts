import { z } from "zod";
import { repositorySchema, shaSchema, userSchema } from "./parse-payload.js";

/**
 * What queuePullRequestCheck reads of a pull_request opened, synchronize or reopened delivery; the
 * rest of the pull request (author, links, repositories) is kept for toPullRequest, which tolerates its absence.
 */
export const pullRequestPayloadSchema = z.object({
  pull_request: z.looseObject(
    {
      number: z
        .number({ error: "expected the pull request's number" })
        .int({ error: "expected the pull request's number" })
        .positive({ error: "expected the pull request's number" }),
      head: z.looseObject({ sha: shaSchema("the head commit") }, { error: "expected the pull request's head" }),
      // GitHub's clock when this head became the pull request's head (bot/head-push-log.ts).
      updated_at: z.iso.datetime({ error: "expected when the pull request was updated (an ISO time)", offset: true }).optional(),
    },
    { error: "expected the pull request" },
  ),
  // Who opened, pushed or reopened: with trigger auto, a push is judged by its pusher.
  sender: userSchema("who opened, pushed to or reopened the pull request"),
  repository: repositorySchema,
});

export type PullRequestPayload = z.output<typeof pullRequestPayloadSchema>;
