import { z } from "zod";
import { repositorySchema, shaSchema } from "./parse-payload.js";

/** What postScorecard reads of a workflow_run.completed delivery. */
export const workflowRunPayloadSchema = z.object({
  workflow_run: z.object(
    {
      id: z.number({ error: "expected the run's id" }).int({ error: "expected the run's id" }),
      // Each attempt of a run is its own card (a re-run is new work).
      run_attempt: z
        .number({ error: "expected the run's attempt" })
        .int({ error: "expected the run's attempt" })
        .positive({ error: "expected the run's attempt" })
        .default(1),
      path: z.string({ error: "expected the workflow file's path" }).min(1, { error: "expected the workflow file's path" }),
      // Decorations: without them the run is treated as an ordinary (untrusted by default) one, the link left out.
      event: z.string({ error: "expected the event that started the run" }).default(""),
      head_sha: shaSchema("the commit the run scored"),
      head_branch: z.string({ error: "expected a branch name or null" }).nullish(),
      head_repository: z
        .object({ full_name: z.string({ error: "expected owner/name" }) }, { error: "expected the head repository or null" })
        .nullish(),
      display_title: z.string({ error: "expected the run's title" }).optional(),
      name: z.string({ error: "expected the workflow's name" }).nullish(),
      html_url: z.string({ error: "expected the run's page" }).optional(),
      conclusion: z.string({ error: "expected the run's conclusion or null" }).nullish(),
      run_started_at: z.string({ error: "expected when the run started" }).nullish(),
      created_at: z.string({ error: "expected when the run was created" }),
    },
    { error: "expected the workflow run" },
  ),
  repository: repositorySchema,
});

export type WorkflowRunPayload = z.output<typeof workflowRunPayloadSchema>;
