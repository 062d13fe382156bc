import { z } from "zod";
import { repositorySchema, shaSchema, userSchema } from "./parse-payload.js";

/** What rescoreOnRerequest reads of a check_run.rerequested delivery. */
export const checkRunPayloadSchema = z.object({
  check_run: z.object(
    {
      id: z.number({ error: "expected the check run's id" }).int({ error: "expected the check run's id" }),
      name: z.string({ error: "expected the check's name" }),
      // A re-run of a check that concluded again is a new request (bot/store/derive-work-key.ts).
      completed_at: z.string({ error: "expected when the check concluded, or null" }).nullish(),
      head_sha: shaSchema("the commit the check is on"),
      pull_requests: z.array(
        z.object(
          {
            number: z.number({ error: "expected the pull request's number" }).int({ error: "expected the pull request's number" }),
            head: z.object({ sha: z.string({ error: "expected the head commit" }) }, { error: "expected the pull request's head" }),
          },
          { error: "expected a pull request" },
        ),
        { error: "expected the list of pull requests the check belongs to" },
      ),
    },
    { error: "expected the check run" },
  ),
  // Whoever pressed Re-run: their permission decides.
  sender: userSchema("who asked for the re-run"),
  repository: repositorySchema,
});

export type CheckRunPayload = z.output<typeof checkRunPayloadSchema>;
