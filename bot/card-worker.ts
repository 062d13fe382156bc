import { parentPort } from "node:worker_threads";
import { type ScorecardZipJob, processScorecardZip } from "../src/github/process-scorecard-zip.js";

/** What the app posts to the worker, and what comes back: the result, or the error's message. */
export interface CardJobMessage {
  id: number;
  job: ScorecardZipJob;
}

export type CardJobReply = { id: number; result: ReturnType<typeof processScorecardZip> } | { id: number; error: string };

/** The worker thread's side (bot/read-cards-off-thread.ts starts it): one job at a time, as they arrive. */
export function serveCardJobs(): void {
  const port = parentPort;
  if (!port) throw new Error("bot/card-worker.ts runs in a worker thread");
  port.on("message", (message: CardJobMessage) => {
    let reply: CardJobReply;
    try {
      reply = { id: message.id, result: processScorecardZip(message.job) };
    } catch (error) {
      reply = { id: message.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
    }
    port.postMessage(reply);
  });
}
