import type { Probot } from "probot";
import { type AppDeps, handleOnce } from "./app-deps.js";
import { DeliveryLog } from "./delivery-log.js";
import { postScorecard } from "./handlers/post-scorecard.js";
import { queuePullRequestCheck } from "./handlers/queue-pull-request-check.js";
import { rescoreOnComment } from "./handlers/rescore-on-comment.js";
import { rescoreOnRerequest } from "./handlers/rescore-on-rerequest.js";
import { KeyedQueue } from "./keyed-queue.js";
import { DEFAULT_DELIVERY_RETRY, type DeliveryRetryPolicy } from "./retry-delivery.js";

export interface SpeedgateAppOptions {
  /** Tests shorten the waits; deployed, the default applies. */
  deliveryRetry?: DeliveryRetryPolicy;
}

/** The speedgate GitHub App: posts score cards, owns the `speedgate` check, and runs `/rescore`. */
export function createSpeedgateApp(options: SpeedgateAppOptions = {}): (app: Probot) => void {
  return (app) => {
    loadSpeedgateApp(app, options.deliveryRetry ?? DEFAULT_DELIVERY_RETRY);
  };
}

const speedgateApp = createSpeedgateApp();
export default speedgateApp;

function loadSpeedgateApp(app: Probot, deliveryRetry: DeliveryRetryPolicy): void {
  let appId: Promise<number> | null = null;
  const deps: AppDeps = {
    deliveries: new DeliveryLog(),
    queue: new KeyedQueue(),
    deliveryRetry,
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
  app.on("workflow_run.completed", handleOnce(deps, postScorecard(deps)));
  app.on(["pull_request.opened", "pull_request.synchronize", "pull_request.reopened"], handleOnce(deps, queuePullRequestCheck(deps)));
  app.on("issue_comment.created", handleOnce(deps, rescoreOnComment(deps)));
  app.on("check_run.rerequested", handleOnce(deps, rescoreOnRerequest(deps)));
}
