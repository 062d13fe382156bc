import { randomBytes } from "node:crypto";
import type { ActionContext } from "./action-context.js";

/** Unique per step: a re-run, another shard or another job of the same run must not sweep this one's engines. */
export function createRunId(context: ActionContext): string {
  return `${context.runId ?? "local"}-${context.runAttempt ?? "1"}-${randomBytes(4).toString("hex")}`;
}
