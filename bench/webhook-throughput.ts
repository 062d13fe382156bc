import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createNodeMiddleware } from "probot";
import speedgateApp from "../bot/index.js";
import { OWNER, REPO, workflowRunCompleted } from "../test/support/fake-github/adjust-payloads.js";
import { createTestProbot } from "../test/support/fake-github/create-test-probot.js";
import { FakeGitHub } from "../test/support/fake-github/fake-github-server.js";
import { makeTestScorecard, zipScorecard } from "../test/support/fake-github/make-test-scorecard.js";
import { sendWebhook } from "../test/support/fake-github/send-webhook.js";
import { type FakePull, serveRepository } from "../test/support/fake-github/serve-repository.js";
import { readRunStamp } from "../bot/stamp-card-comment.js";

export interface WebhookBenchResult {
  name: string;
  figures: {
    deliveries: number;
    pullRequests: number;
    handled: number;
    comments: number;
    duplicateComments: number;
    staleComments: number;
    apiViolations: number;
    latencyMedianMs: number;
    latencyP99Ms: number;
    throughputPerS: number;
    wallMs: number;
  };
  goals: { everyDeliveryHandled: boolean; zeroDuplicateComments: boolean; latestCardKept: boolean; noApiViolations: boolean };
  met: boolean;
  notes: string[];
}

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? 0;
}

/**
 * 100 signed workflow_run deliveries sent at once over HTTP to the app (in-process, Probot's own
 * middleware, retries and throttling off so the figure is the app's, not GitHub's pacing), for 20 pull
 * requests at five finished runs each, against the local fake. Latency is from the delivery being sent
 * to Probot's answer, which it sends once the handler is done (comment and check written, or an older
 * run's card dropped); a 202 after Probot's 9 s limit counts as not handled.
 */
export async function benchWebhookThroughput(
  options: { deliveries?: number; pullRequests?: number } = {},
): Promise<WebhookBenchResult> {
  const deliveries = options.deliveries ?? 100;
  const pullCount = options.pullRequests ?? 20;
  const appId = 31337;
  const secret = "bench-secret";
  const fake = new FakeGitHub();
  await fake.start();
  const server = createServer();
  try {
    const pulls: FakePull[] = Array.from({ length: pullCount }, (_, index) => ({
      number: index + 1,
      headSha: (index + 1).toString(16).padStart(40, "0"),
      headRepo: `${OWNER}/${REPO}`,
      headBranch: `branch-${index}`,
      author: `author${index}`,
    }));
    const artifacts: Record<number, Uint8Array> = {};
    const zip = zipScorecard(makeTestScorecard({ scores: Array.from({ length: 50 }, (_, index) => 0.9 + index / 100) }));
    for (let index = 0; index < deliveries; index++) artifacts[10_000 + index] = zip;
    serveRepository(fake, { owner: OWNER, repo: REPO, appId, pulls, artifacts });

    const probot = await createTestProbot({ fakeUrl: fake.url, appId, secret, load: false });
    const middleware = await createNodeMiddleware(speedgateApp, { probot });
    server.on("request", (request, response) => {
      void middleware(request, response, () => response.writeHead(404).end());
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/github/webhooks`;

    const latestRun = new Map<number, number>();
    const sends = Array.from({ length: deliveries }, (_, index) => {
      const pull = pulls[index % pullCount] as FakePull;
      const runId = 10_000 + index;
      latestRun.set(pull.number, runId);
      const payload = workflowRunCompleted({
        id: runId,
        headSha: pull.headSha,
        headBranch: pull.headBranch,
        headRepo: pull.headRepo,
        startedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString(),
      });
      return { payload, pull };
    });
    const started = performance.now();
    const results = await Promise.all(
      sends.map(async ({ payload }) => {
        const sent = performance.now();
        const status = await sendWebhook(url, { event: "workflow_run", payload, secret });
        return { ok: status === 200, ms: performance.now() - sent };
      }),
    );
    const wallMs = performance.now() - started;
    const latencies = results.map((result) => result.ms).sort((a, b) => a - b);
    const handled = results.filter((result) => result.ok).length;
    const commented = new Set(fake.comments.map((comment) => comment.issueNumber));
    const stale = fake.comments.filter((comment) => readRunStamp(comment.body)?.runId !== latestRun.get(comment.issueNumber)).length;
    const figures = {
      deliveries,
      pullRequests: pullCount,
      handled,
      comments: fake.comments.length,
      duplicateComments: fake.comments.length - commented.size,
      staleComments: stale,
      apiViolations: fake.violations.length,
      latencyMedianMs: Math.round(percentile(latencies, 0.5)),
      latencyP99Ms: Math.round(percentile(latencies, 0.99)),
      throughputPerS: Math.round((deliveries / (wallMs / 1000)) * 10) / 10,
      wallMs: Math.round(wallMs),
    };
    const goals = {
      everyDeliveryHandled: handled === deliveries && commented.size === pullCount,
      zeroDuplicateComments: figures.duplicateComments === 0,
      latestCardKept: stale === 0,
      noApiViolations: figures.apiViolations === 0,
    };
    return {
      name: "webhook-throughput",
      figures,
      goals,
      met: Object.values(goals).every(Boolean),
      notes: [
        "In-process app behind Probot's HTTP middleware with signature checks; Octokit retries and throttling off.",
        "Deployed with `npm run bot`, Probot's throttling paces writes to about one per second per installation, as GitHub asks; that, not the app, then bounds throughput.",
      ],
    };
  } finally {
    if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    await fake.stop();
  }
}

if (import.meta.url === `file://${process.argv[1] ?? ""}`) {
  const result = await benchWebhookThroughput();
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  process.exitCode = result.met ? 0 : 1;
}
