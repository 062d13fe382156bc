import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { OWNER, REPO, issueCommentCreated, workflowRunCompleted } from "../fake-github/adjust-payloads.js";
import { FakeGitHub, type FakeResponse } from "../fake-github/fake-github-server.js";
import { zipScorecard } from "../fake-github/make-test-scorecard.js";
import { sendWebhook } from "../fake-github/send-webhook.js";
import { type FakePull, serveRepository } from "../fake-github/serve-repository.js";
import { type BotProcess, startBotProcess } from "../fake-github/start-bot-process.js";
import { ASSET_PATHS, renderPullRequestPage } from "./render-pull-request-page.js";

const require = createRequire(import.meta.url);
const EXAMPLES = new URL("../../examples/cards/", import.meta.url);

/** The pull request the page shows: one commit on a fork-free branch, by someone the app lets /rescore. */
const PULL: FakePull = {
  number: 1,
  headSha: "c0ffee".padEnd(40, "0"),
  headRepo: `${OWNER}/${REPO}`,
  headBranch: "faster-decode",
  author: "maintainer",
};
const TITLE = "Speed up the decode kernel";

export interface TryApp {
  /** The pull request's page, for a browser. */
  pageUrl: string;
  fake: FakeGitHub;
  bot: BotProcess;
  /** Resolves once the app has posted the card of every scoring run started so far. */
  idle: () => Promise<void>;
  stop: () => Promise<void>;
}

/**
 * `npm run try-app`: the app (`npm run bot`, a real HTTP server) against the local GitHub fake, with a pull request
 * whose page the fake serves: the comment the app posted (a stored example card, examples/cards/, as a scoring run's
 * artifact), the `speedgate` check, and a comment box. A `/rescore` written there reaches the app as a signed
 * issue_comment delivery; the app checks the commenter's permission and dispatches the scoring workflow, which the fake
 * "runs" at once by delivering workflow_run.completed with the next example card as its artifact.
 */
export async function startTryApp(options: { port?: number; cards?: readonly string[] } = {}): Promise<TryApp> {
  const cards = options.cards ?? ["passing-round", "calibrated-three-runs", "candidate-crash-mid-round"];
  const fake = new FakeGitHub();
  await fake.start();
  const appId = 4239;
  let bot: BotProcess;
  try {
    bot = await startBotProcess({ gheHost: fake.host, appId, ...(options.port !== undefined ? { port: options.port } : {}) });
  } catch (error) {
    await fake.stop();
    throw error;
  }
  const repo = serveRepository(fake, { owner: OWNER, repo: REPO, appId, pulls: [PULL], roles: { maintainer: "write" } });
  const pending = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown>): void => {
    pending.add(work);
    void work.finally(() => pending.delete(work)).catch(() => undefined);
  };
  let nextCard = 0;
  // One scoring run: its artifact is the next example card, its completion a signed workflow_run delivery.
  const finishRun = async (runId: number): Promise<void> => {
    const name = cards[nextCard++ % cards.length] ?? "passing-round";
    repo.artifacts.set(runId, zipScorecard(await readFile(new URL(`${name}.json`, EXAMPLES), "utf8")));
    const id = randomUUID();
    const run = workflowRunCompleted({ id: runId, headSha: PULL.headSha, headBranch: PULL.headBranch, headRepo: PULL.headRepo });
    if ((await sendWebhook(bot.webhookUrl, { event: "workflow_run", payload: run, id, secret: bot.secret })) === 200) await bot.settled(id);
  };
  let dispatched = 0;
  const runDispatches = (): void => {
    while (dispatched < repo.dispatches.length) {
      const dispatch = repo.dispatches[dispatched++];
      if (dispatch) track(finishRun(dispatch.runId));
    }
  };
  const assets: Record<string, { file: string; type: string }> = {
    [ASSET_PATHS.css]: { file: require.resolve("github-markdown-css/github-markdown-light.css"), type: "text/css; charset=utf-8" },
    [ASSET_PATHS.mermaid]: { file: require.resolve("mermaid/dist/mermaid.min.js"), type: "text/javascript; charset=utf-8" },
  };
  const pagePath = `/${OWNER}/${REPO}/pull/${PULL.number}`;
  fake.onPage(async ({ method, url, body }): Promise<FakeResponse | null> => {
    const asset = assets[url.pathname];
    if (asset && method === "GET") return { status: 200, body: await readFile(asset.file), headers: { "content-type": asset.type } };
    if (method === "GET" && (url.pathname === "/" || url.pathname === pagePath)) {
      runDispatches();
      const page = renderPullRequestPage({
        repository: `${OWNER}/${REPO}`,
        pull: PULL,
        title: TITLE,
        comments: fake.comments,
        checks: fake.checkRuns,
      });
      return { status: 200, body: page, headers: { "content-type": "text/html; charset=utf-8" } };
    }
    if (method === "POST" && url.pathname === `${pagePath}/comments`) {
      const text = new URLSearchParams(body).get("body")?.trim() ?? "";
      if (text !== "") {
        const comment = { id: fake.nextId(), issueNumber: PULL.number, body: text, login: "maintainer", type: "User" as const };
        fake.comments.push({ ...comment, createdAt: new Date().toISOString() });
        const payload = issueCommentCreated({ number: PULL.number, body: text, login: "maintainer", commentId: comment.id });
        const id = randomUUID();
        // The app answers the delivery once its work is stored; the page shows what it did once that work is over.
        if ((await sendWebhook(bot.webhookUrl, { event: "issue_comment", payload, id, secret: bot.secret })) === 200) await bot.settled(id);
        runDispatches();
      }
      return { status: 303, headers: { location: pagePath } };
    }
    return null;
  });
  // The first run, as if the pull request had been scored when it was opened.
  await finishRun(fake.nextId());
  const idle = async (): Promise<void> => {
    runDispatches();
    while (pending.size > 0) await Promise.all([...pending]);
  };
  return {
    pageUrl: `${fake.url}${pagePath}`,
    fake,
    bot,
    idle,
    stop: async () => {
      await idle().catch(() => undefined);
      await bot.stop();
      await fake.stop();
    },
  };
}
