import type { Context } from "probot";
import { z } from "zod";
import { formatConfigIssues } from "../../src/vocabulary/format-config-issues.js";

/*
 * Webhook payloads are checked before a handler reads them: GitHub always sends these fields, but a
 * hand-made redelivery, a proxy or a GitHub Enterprise version may not, and a handler reading a
 * missing field would either throw a TypeError or call the API with an empty path segment.
 */

/** The repository every handled event carries; the owner and name address every API call. */
export const repositorySchema = z.object(
  {
    name: z.string({ error: "expected the repository's name" }).min(1, { error: "expected the repository's name" }),
    owner: z.object(
      {
        login: z.string({ error: "expected the owner's login" }).min(1, { error: "expected the owner's login" }),
        // User or Organization: who can have a permission on the repository follows from it.
        type: z.string().optional(),
      },
      { error: "expected the repository's owner" },
    ),
    default_branch: z.string({ error: "expected the default branch's name" }).min(1, { error: "expected the default branch's name" }),
  },
  { error: "expected the repository the event happened in" },
);

/** A commit SHA as GitHub writes it (40 hex digits, 64 for SHA-256 repositories). */
export const shaSchema = (field: string) =>
  z.string({ error: `expected ${field}` }).regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/, { error: `expected ${field}` });

/** A user as the payload names them: who commented, who pressed Re-run. */
export const userSchema = (who: string) =>
  z.object(
    {
      login: z.string({ error: "expected a login" }).min(1, { error: "expected a login" }),
      type: z.string({ error: "expected User or Bot" }),
    },
    { error: `expected ${who}` },
  );

export interface ParsedPayload<T> {
  payload: T;
  repo: { owner: string; repo: string };
}

/**
 * The delivery's payload checked against the fields its handler needs, or null after one log line
 * naming what is missing; an invalid delivery is ignored, with no API call.
 */
export function parsePayload<S extends z.ZodType<{ repository: z.output<typeof repositorySchema> }>>(
  context: Context,
  schema: S,
): ParsedPayload<z.output<S>> | null {
  const parsed = schema.safeParse(context.payload);
  if (parsed.success)
    return { payload: parsed.data, repo: { owner: parsed.data.repository.owner.login, repo: parsed.data.repository.name } };
  const action = (context.payload as { action?: unknown }).action;
  const event = typeof action === "string" ? `${context.name}.${action}` : context.name;
  const problems = formatConfigIssues(parsed.error.issues, context.payload, schema);
  context.log.warn({ delivery: context.id, event, problems }, `ignoring the ${event} delivery ${context.id}: ${problems.join("; ")}`);
  return null;
}
