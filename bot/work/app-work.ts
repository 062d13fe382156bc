import { EventEmitter } from "node:events";
import type { Probot } from "probot";

/*
 * Each delivery's work as a job: the webhook handler only checks the payload and stores the work
 * (bot/handlers/intake-delivery.ts); the job does the API calls. Deployed, the store is the database's job
 * queue (bot/work/database-work.ts): stored before GitHub gets its answer, retried with backoff across
 * restarts, shared by replicas. Unit tests may run the same jobs inline (bot/work/inline-work.ts).
 */

export const TASKS = [
  "post-card",
  "publish-card",
  "pull-request",
  "rescore-comment",
  "rescore-rerequest",
  "leaderboard",
  "watch-card",
  "merge-push",
  "bisect",
] as const;
export type TaskName = (typeof TASKS)[number];

export interface WorkRequest {
  task: TaskName;
  /** JSON the job reads back and validates. */
  payload: Record<string, unknown>;
  /** What the payload identifies: stored once, ever (a redelivery or a replay under a new delivery id is a copy). */
  key: string;
  /** Work in one lane (a pull request) runs one job at a time, in the order stored. */
  lane: string | null;
  /** The delivery that asked, for log lines and the failed check's advice. */
  deliveryId: string | null;
}

/** Probot's pino logger: structured fields first, then the message. */
export type AppLog = Probot["log"];

export interface JobContext {
  key: string;
  /** 1 on the first run. */
  attempt: number;
  /** When this run throws, the work is given up: leave the visible trace (a failed check) first. */
  isFinalAttempt: boolean;
  deliveryId: string | null;
  log: AppLog;
  /** Stores follow-up work (the card's pull request lane, the leaderboard); a retry storing the same key again is a copy. */
  submit(work: WorkRequest): Promise<{ stored: boolean }>;
}

export type JobHandler = (payload: unknown, job: JobContext) => Promise<void>;
export type JobHandlers = Record<TaskName, JobHandler>;

export type WorkOutcome = "done" | "retry" | "given-up";

export interface WorkEvents {
  /** Work stored by a delivery or a job (or found stored before: `stored` false). */
  stored: [{ key: string; stored: boolean; deliveryId: string | null }];
  /** A run of a job ended; `followUps` are the keys it stored. */
  ended: [{ key: string; outcome: WorkOutcome; followUps: string[]; error: string | null }];
}

export interface WorkStore {
  /** Stores the work (or, inline, does it); `stored` false when its key was stored before. */
  submit(work: WorkRequest): Promise<{ stored: boolean }>;
  /** Starts running jobs with these handlers; the app calls it once when it loads. */
  start(handlers: JobHandlers): Promise<void>;
  /**
   * Lets running jobs finish; stored ones stay for the next start. With `graceMs`, a job still running after it
   * is handed back to run again at the next start instead of being waited for (src/store/work-queue.ts).
   */
  stop(options?: { graceMs?: number }): Promise<void>;
  readonly events: EventEmitter<WorkEvents>;
}

export function createWorkEvents(): EventEmitter<WorkEvents> {
  return new EventEmitter<WorkEvents>();
}

export function describeError(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "";
}

/**
 * Runs one job's handler, with the log lines an operator (and the tests, through LOG_FORMAT=json) read:
 * one line when the run ends, naming the work, its outcome and the follow-up work it stored.
 */
export async function runJob(
  handlers: JobHandlers | null,
  task: string,
  payload: unknown,
  job: Omit<JobContext, "submit" | "log">,
  submit: WorkStore["submit"],
  events: EventEmitter<WorkEvents>,
  log: AppLog,
  /** Runs before a given-up run is reported ended, so whoever waits for the end finds its consequences done. */
  onGiveUp?: () => Promise<void>,
): Promise<void> {
  const handler = handlers && (TASKS as readonly string[]).includes(task) ? handlers[task as TaskName] : null;
  const followUps: string[] = [];
  const context: JobContext = {
    ...job,
    log,
    submit: async (work) => {
      followUps.push(work.key);
      return await submit(work);
    },
  };
  try {
    if (!handler) throw new Error(`no handler for the task ${task}`);
    await handler(payload, context);
  } catch (error) {
    const outcome: WorkOutcome = job.isFinalAttempt ? "given-up" : "retry";
    const reason = describeError(error);
    const fields = { work: job.key, task, delivery: job.deliveryId, attempt: job.attempt, outcome, followUps, error: reason };
    if (outcome === "given-up") {
      await onGiveUp?.();
      log.error(fields, `${task} ${job.key} failed on attempt ${job.attempt} and is given up: ${reason}`);
    } else log.warn(fields, `${task} ${job.key} failed on attempt ${job.attempt}, to be retried: ${reason}`);
    events.emit("ended", { key: job.key, outcome, followUps, error: reason });
    throw error;
  }
  log.info(
    { work: job.key, task, delivery: job.deliveryId, attempt: job.attempt, outcome: "done", followUps },
    `${task} ${job.key} done${job.attempt > 1 ? ` on attempt ${job.attempt}` : ""}`,
  );
  events.emit("ended", { key: job.key, outcome: "done", followUps, error: null });
}
