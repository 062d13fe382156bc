import { z } from "zod";
import { repositorySchema, shaSchema } from "./parse-payload.js";

/*
 * What watch.everyMerge reads of a push delivery: the ref pushed, the commits it moved from and to, and
 * whether it was forced or deleted the ref. The payload's `commits` array is never read: it holds at most
 * 20 commits and includes a merged branch's own commits; main's first-parent range is read through the API.
 */
export const pushPayloadSchema = z.object({
  ref: z.string({ error: "expected the ref pushed, such as refs/heads/main" }).min(1, { error: "expected the ref pushed" }),
  // All zeros when the push created the ref.
  before: shaSchema("the commit the ref was at before the push"),
  // All zeros when the push deleted the ref.
  after: shaSchema("the commit the ref is at after the push"),
  created: z.boolean({ error: "expected whether the push created the ref" }).default(false),
  deleted: z.boolean({ error: "expected whether the push deleted the ref" }).default(false),
  forced: z.boolean({ error: "expected whether the push was forced" }).default(false),
  repository: repositorySchema,
});

export type PushPayload = z.output<typeof pushPayloadSchema>;
