import { z } from "zod";
import { repositorySchema, userSchema } from "./parse-payload.js";

/** What rescoreOnComment reads of an issue_comment.created delivery. */
export const issueCommentPayloadSchema = z.object({
  comment: z.object(
    {
      id: z.number({ error: "expected the comment's id" }).int({ error: "expected the comment's id" }),
      body: z.string({ error: "expected the comment's text" }),
      // GitHub's clock: how old the command is, and whether the head it would score came after it.
      created_at: z.iso.datetime({ error: "expected when the comment was written (an ISO time)", offset: true }),
      user: userSchema("the comment's author"),
      // Computed by GitHub with no viewer: a private organisation member shows as CONTRIBUTOR or NONE, so
      // it settles a refusal only on a personal repository (bot/handlers/rescore-on-comment.ts).
      author_association: z.string().optional(),
    },
    { error: "expected the comment" },
  ),
  issue: z.object(
    {
      number: z
        .number({ error: "expected the issue's number" })
        .int({ error: "expected the issue's number" })
        .positive({ error: "expected the issue's number" }),
      // Present only on a pull request's conversation.
      pull_request: z.unknown().optional(),
    },
    { error: "expected the issue or pull request commented on" },
  ),
  repository: repositorySchema,
});

export type IssueCommentPayload = z.output<typeof issueCommentPayloadSchema>;
