import type { Probot } from "probot";
import type { AppDeps, InstallationOctokit } from "./handlers/app-deps.js";
import { readPagesSettings } from "./read-pages-settings.js";
import { type AppStore, memoryAppStore } from "./store/app-store.js";
import type { DeliveryLedger } from "./delivery-ledger.js";
import { CollaboratorRoleCache } from "./collaborator-role-cache.js";
import { advanceBisectionJob } from "./handlers/advance-bisection.js";
import { watchCardJob } from "./handlers/read-watch-card.js";
import { intakePush, mergePushJob } from "./handlers/score-each-merge.js";
import { intakeWorkflowRun, postCardJob, publishCardJob } from "./handlers/post-scorecard.js";
import { intakePullRequest, pullRequestJob } from "./handlers/queue-pull-request-check.js";
import { intakeComment, rescoreCommentJob } from "./handlers/rescore-on-comment.js";
import { intakeRerequest, rescoreRerequestJob } from "./handlers/rescore-on-rerequest.js";
import { updateLeaderboardJob } from "./handlers/update-leaderboard.js";
import type { HeadPushLog } from "./head-push-log.js";
import { intakeDelivery } from "./handlers/intake-delivery.js";
import { type CardReader, WorkerCardReader } from "./read-cards-off-thread.js";
import type { RefusalLimiter } from "./refusal-limiter.js";
import { resolveAppDocsUrl } from "./resolve-app-docs-url.js";
import type { JobHandlers } from "./work/app-work.js";
import { UnpinnedCheckWarnings } from "./warn-unpinned-check.js";

/** A `/rescore` whose comment is older than this when GitHub first sent it is not run (a replayed delivery). */
export const COMMAND_MAX_AGE_MS = 10 * 60_000;

export interface SpeedgateAppOptions {
  /**
   * Where work and state live. Deployed (bot/server.ts) it is the database (bot/store/database-app-store.ts);
   * without one, an in-memory store that does each delivery's work inline, for unit tests.
   */
  store?: (app: Probot) => AppStore;
  /** The in-memory store's parts, when no store is given. */
  deliveries?: DeliveryLedger;
  refusals?: RefusalLimiter;
  heads?: HeadPushLog;
  cards?: CardReader;
  commandMaxAgeMs?: number;
  /** The cards' troubleshooting links; SPEEDGATE_DOCS_URL or speedgate's own by default. */
  docsBaseUrl?: string;
  /** Where the history pages are; SPEEDGATE_PAGES_URL by default, none without it. */
  pagesUrl?: string | null;
  now?: () => number;
}

/** The speedgate GitHub App: posts score cards, owns the `speedgate` check, and runs `/rescore`. */
export function createSpeedgateApp(options: SpeedgateAppOptions = {}): (app: Probot) => Promise<void> {
  return async (app) => {
    await loadSpeedgateApp(app, options);
  };
}

const speedgateApp = createSpeedgateApp();
export default speedgateApp;

/** A value fetched once with the App's JWT, fetched again after a failure. */
function onceFromApp<T>(app: Probot, read: (octokit: InstallationOctokit) => Promise<T>): () => Promise<T> {
  let value: Promise<T> | null = null;
  return async () => {
    value ??= app.auth().then(read);
    value.catch(() => {
      value = null;
    });
    return await value;
  };
}

async function loadSpeedgateApp(app: Probot, options: SpeedgateAppOptions): Promise<void> {
  const store =
    options.store?.(app) ??
    memoryAppStore(app.log, {
      ...(options.deliveries ? { deliveries: options.deliveries } : {}),
      ...(options.refusals ? { refusals: options.refusals } : {}),
      ...(options.heads ? { heads: options.heads } : {}),
    });
  const appInfo = onceFromApp(app, async (octokit) => {
    const response = await octokit.request("GET /app");
    return { id: response.data?.id ?? 0, slug: response.data?.slug ?? "speedgate" };
  });
  const deps: AppDeps = {
    store,
    cards: options.cards ?? new WorkerCardReader(),
    commandMaxAgeMs: options.commandMaxAgeMs ?? COMMAND_MAX_AGE_MS,
    docsBaseUrl: options.docsBaseUrl ?? resolveAppDocsUrl(process.env),
    pagesUrl: options.pagesUrl !== undefined ? options.pagesUrl : (readPagesSettings(process.env)?.baseUrl ?? null),
    roles: new CollaboratorRoleCache(undefined, options.now),
    requiredCheck: new UnpinnedCheckWarnings(options.now),
    now: options.now ?? Date.now,
    appId: async () => (await appInfo()).id,
    appSlug: async () => (await appInfo()).slug,
    octokit: async (installationId) => await app.auth(installationId),
  };
  const handlers: JobHandlers = {
    "post-card": postCardJob(deps),
    "publish-card": publishCardJob(deps),
    "pull-request": pullRequestJob(deps),
    "rescore-comment": rescoreCommentJob(deps),
    "rescore-rerequest": rescoreRerequestJob(deps),
    leaderboard: updateLeaderboardJob(deps),
    "watch-card": watchCardJob(deps),
    bisect: advanceBisectionJob(deps),
    "merge-push": mergePushJob(deps),
  };
  await store.work.start(handlers);
  app.on("workflow_run.completed", intakeDelivery(deps, intakeWorkflowRun));
  app.on(
    ["pull_request.opened", "pull_request.synchronize", "pull_request.reopened", "pull_request.closed"],
    intakeDelivery(deps, intakePullRequest(deps)),
  );
  app.on("issue_comment.created", intakeDelivery(deps, intakeComment(deps)));
  app.on("check_run.rerequested", intakeDelivery(deps, intakeRerequest));
  // watch.everyMerge: each merge to the default branch scored against its parent (score-each-merge.ts).
  app.on("push", intakeDelivery(deps, intakePush));
}
