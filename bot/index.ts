import type { Probot } from "probot";
import { type AppDeps, handleOnce } from "./app-deps.js";
import { type DeliveryLedger, MemoryDeliveryLedger } from "./delivery-ledger.js";
import { postScorecard } from "./handlers/post-scorecard.js";
import { queuePullRequestCheck } from "./handlers/queue-pull-request-check.js";
import { rescoreOnComment } from "./handlers/rescore-on-comment.js";
import { rescoreOnRerequest } from "./handlers/rescore-on-rerequest.js";
import { type HeadPushLog, MemoryHeadPushLog } from "./head-push-log.js";
import { KeyedQueue } from "./keyed-queue.js";
import { commentKeys, pullRequestKeys, rerequestKeys, workflowRunKeys } from "./payloads/payload-keys.js";
import { type CardReader, WorkerCardReader } from "./read-cards-off-thread.js";
import { MemoryRefusalLimiter, type RefusalLimiter } from "./refusal-limiter.js";
import { DEFAULT_DELIVERY_RETRY, type DeliveryRetryPolicy } from "./retry-delivery.js";

/** A `/rescore` whose comment is older than this is not run (a replayed or hand-redelivered delivery). */
export const COMMAND_MAX_AGE_MS = 10 * 60_000;

export interface SpeedgateAppOptions {
  /** Tests shorten the waits; deployed, the default applies. */
  deliveryRetry?: DeliveryRetryPolicy;
  /** The stores a database-backed deployment replaces; in memory by default. */
  deliveries?: DeliveryLedger;
  refusals?: RefusalLimiter;
  heads?: HeadPushLog;
  cards?: CardReader;
  commandMaxAgeMs?: number;
  now?: () => number;
}

/** The speedgate GitHub App: posts score cards, owns the `speedgate` check, and runs `/rescore`. */
export function createSpeedgateApp(options: SpeedgateAppOptions = {}): (app: Probot) => void {
  return (app) => {
    loadSpeedgateApp(app, options);
  };
}

const speedgateApp = createSpeedgateApp();
export default speedgateApp;

function loadSpeedgateApp(app: Probot, options: SpeedgateAppOptions): void {
  let appId: Promise<number> | null = null;
  const deps: AppDeps = {
    deliveries: options.deliveries ?? new MemoryDeliveryLedger(),
    refusals: options.refusals ?? new MemoryRefusalLimiter(),
    heads: options.heads ?? new MemoryHeadPushLog(),
    cards: options.cards ?? new WorkerCardReader(),
    queue: new KeyedQueue(),
    deliveryRetry: options.deliveryRetry ?? DEFAULT_DELIVERY_RETRY,
    commandMaxAgeMs: options.commandMaxAgeMs ?? COMMAND_MAX_AGE_MS,
    now: options.now ?? Date.now,
    appId: async () => {
      appId ??= app.auth().then(async (octokit) => {
        const response = await octokit.request("GET /app");
        return response.data?.id ?? 0;
      });
      appId.catch(() => {
        appId = null;
      });
      return await appId;
    },
  };
  app.on("workflow_run.completed", handleOnce(deps, workflowRunKeys, postScorecard(deps)));
  app.on(["pull_request.opened", "pull_request.synchronize", "pull_request.reopened"], handleOnce(deps, pullRequestKeys, queuePullRequestCheck(deps)));
  app.on("issue_comment.created", handleOnce(deps, commentKeys, rescoreOnComment(deps)));
  app.on("check_run.rerequested", handleOnce(deps, rerequestKeys, rescoreOnRerequest(deps)));
}
