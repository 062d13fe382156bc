import { randomUUID } from "node:crypto";
import { type IncomingMessage, createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import type { Probot } from "probot";
import { DEFAULT_WEBHOOK_BODY_LIMITS, createBodyGuard } from "../../bot/guard-webhook-body.js";
import { readRunStamp } from "../../bot/stamp-card-comment.js";
import { filterDiffByPaths } from "../../src/patch/filter-diff-by-paths.js";
import { holdWebhookUploads } from "../../harness/hold-webhook-uploads.js";
import type { Scorecard } from "../../src/scorecard/scorecard-schema.js";
import { createTestProbot } from "../../harness/fake-github/create-test-probot.js";
import { OWNER, REPO, issueCommentCreated, pullRequestEvent, workflowRunCompleted } from "../../harness/fake-github/adjust-payloads.js";
import { FakeGitHub } from "../../harness/fake-github/fake-github-server.js";
import { makeTestScorecard, zipScorecard } from "../../harness/fake-github/make-test-scorecard.js";
import { type FakePull, type FakeRepository, serveRepository } from "../../harness/fake-github/serve-repository.js";
import { findRenderedReferences } from "../../harness/find-rendered-references.js";
import { CRASH_WITH_LINKS, EXCERPT_WITH_LINKS, withEngineText } from "../../harness/crash-with-links.js";
import { findRenderedMarkup } from "../../harness/find-rendered-markup.js";
import { type CorpusRow, describeError, firstLine } from "./corpus-row.js";

/*
 * Issue #12's attacks on the app, each tried once against the app in-process (the GitHub fake behind
 * it) or against the webhook body guard on a local server: "clear" when the attack is refused or
 * has no effect, "accepted" when it gets through.
 */

const CATEGORY = "app attack";
const APP_ID = 5252;
const SHA = "c3".repeat(20);
const minutesAgo = (minutes: number): string => new Date(Date.now() - minutes * 60_000).toISOString();

interface Attack {
  input: string;
  /** Null when the attack was refused or had no effect (the message then says how), else what got through. */
  run: () => Promise<{ through: string | null; message: string }>;
}

/** One request to the guard on a local server: the status, and what the guard says it read. */
async function againstGuard(
  headers: Record<string, string>,
  body: { bytes: number; trickle?: boolean },
): Promise<{ status: number | null; logged: string }> {
  let logged = "";
  const guard = createBodyGuard(
    (_request, response) => {
      response.writeHead(200).end();
      return Promise.resolve(true);
    },
    {
      ...DEFAULT_WEBHOOK_BODY_LIMITS,
      maxBytes: 64 * 1024,
      timeoutMs: 200,
      maxBufferedBytes: 1024 * 1024,
      reservedBytes: 256 * 1024,
      smallBodyBytes: 16 * 1024,
      path: "/api/github/webhooks",
      log: { warn: (_fields, message) => (logged = message) },
    },
  );
  const server = createServer((req, res) => void guard(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const status = await new Promise<number | null>((resolve) => {
      const client = request({
        host: "127.0.0.1",
        port: (server.address() as AddressInfo).port,
        path: "/api/github/webhooks",
        method: "POST",
        headers,
      });
      client.on("response", (response: IncomingMessage) => {
        response.resume();
        resolve(response.statusCode ?? null);
      });
      client.on("error", () => resolve(null));
      if (body.trickle) {
        client.write("{");
        return;
      }
      const chunk = Buffer.alloc(16 * 1024, 0x61);
      let sent = 0;
      const pump = (): void => {
        while (sent < body.bytes) {
          sent += chunk.length;
          if (!client.write(chunk)) {
            client.once("drain", pump);
            return;
          }
        }
        client.end();
      };
      pump();
    });
    return { status, logged };
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

const SIGNED = {
  "content-type": "application/json",
  "x-github-event": "ping",
  "x-github-delivery": "x",
  "x-hub-signature-256": "sha256=00",
};

/**
 * Issue #24 point 1 at a small scale: six uploads declaring the largest body, sent but for a byte and
 * held, against a guard whose whole budget holds four; then a small delivery. Its status, and what the
 * guard holds.
 */
async function smallDeliveryUnderHeldUploads(): Promise<{ status: number | null; held: string }> {
  const KiB = 1024;
  const limits = {
    ...DEFAULT_WEBHOOK_BODY_LIMITS,
    maxBytes: 64 * KiB,
    maxBufferedBytes: 256 * KiB,
    reservedBytes: 64 * KiB,
    smallBodyBytes: 8 * KiB,
    maxPeerBufferedBytes: 128 * KiB,
    timeoutMs: 10_000,
    graceMs: 50,
  };
  let refused = 0;
  const guard = createBodyGuard(
    (_request, response) => {
      response.writeHead(200).end();
      return Promise.resolve(true);
    },
    { ...limits, path: "/api/github/webhooks", log: { warn: () => void refused++ } },
  );
  const server = createServer((req, res) => void guard(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const uploads = holdWebhookUploads({ port, count: 6, declaredBytes: 64 * KiB, headers: SIGNED, reopenMs: 20 });
  try {
    await uploads.inPlace;
    const status = await new Promise<number | null>((resolve) => {
      const body = JSON.stringify({ zen: "x".repeat(1000) });
      const client = request({
        host: "127.0.0.1",
        port,
        path: "/api/github/webhooks",
        method: "POST",
        headers: { ...SIGNED, "content-length": String(Buffer.byteLength(body)) },
      });
      client.on("response", (response: IncomingMessage) => {
        response.resume();
        resolve(response.statusCode ?? null);
      });
      client.on("error", () => resolve(null));
      client.end(body);
    });
    return { status, held: `${uploads.opened()} uploads opened, ${refused} refused or cut` };
  } finally {
    uploads.stop();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

export async function runAppAttackInputs(): Promise<CorpusRow[]> {
  const fake = new FakeGitHub();
  await fake.start();
  const rows: CorpusRow[] = [];
  try {
    const probot = await createTestProbot({ fakeUrl: fake.url, appId: APP_ID, logLevel: "fatal" });
    let number = 500;
    const setUp = (
      extra: { pull?: Partial<FakePull>; config?: string; artifacts?: Record<number, Uint8Array> } = {},
    ): { repo: FakeRepository; pull: FakePull } => {
      fake.reset();
      number++;
      const pull: FakePull = {
        number,
        headSha: SHA,
        headRepo: `${OWNER}/${REPO}`,
        headBranch: `b${number}`,
        author: "writer",
        pushedAt: minutesAgo(30),
        ...extra.pull,
      };
      const repo = serveRepository(fake, {
        owner: OWNER,
        repo: REPO,
        appId: APP_ID,
        pulls: [pull],
        roles: { maintainer: "admin", stranger: "read" },
        ...(extra.config ? { config: extra.config } : {}),
        ...(extra.artifacts ? { artifacts: extra.artifacts } : {}),
      });
      return { repo, pull };
    };
    const deliver = async (name: string, payload: unknown): Promise<void> => {
      await probot.receive({ id: randomUUID(), name, payload } as Parameters<Probot["receive"]>[0]);
    };
    const runOf = (id: number, pull: FakePull, startedAt = "2026-01-01T00:00:00Z") =>
      workflowRunCompleted({ id, headSha: pull.headSha, headBranch: pull.headBranch, headRepo: pull.headRepo, startedAt });
    const failureWith = (logTail: string[]): Scorecard["failure"] => ({
      engine: "candidate",
      stage: "benchmark",
      kind: "cuda_oom",
      label: "oom",
      summary: "oom",
      hint: "h",
      exitCode: 1,
      signal: null,
      logTail,
    });
    let runId = 8_000;

    const attacks: Attack[] = [
      {
        input: "unsigned body declaring 64 MiB (content-length) against a 64 KiB limit",
        run: async () => {
          const { status, logged } = await againstGuard(
            { "content-type": "application/json", "content-length": String(64 * 1024 * 1024) },
            { bytes: 0 },
          );
          return { through: status === 413 ? null : `answered ${status}`, message: logged };
        },
      },
      {
        input: "chunked body streaming past the limit",
        run: async () => {
          const { status, logged } = await againstGuard({ ...SIGNED, "transfer-encoding": "chunked" }, { bytes: 4 * 1024 * 1024 });
          const read = Number(/after reading (\d+) bytes/.exec(logged)?.[1] ?? Number.NaN);
          return {
            through: status === 413 && read <= 64 * 1024 ? null : `answered ${status} after buffering ${read} bytes`,
            message: logged,
          };
        },
      },
      {
        input: "body trickling one byte and stopping (slowloris)",
        run: async () => {
          const { status, logged } = await againstGuard({ ...SIGNED, "content-length": "100" }, { bytes: 1, trickle: true });
          return { through: status === 408 ? null : `answered ${status}`, message: logged };
        },
      },
      {
        input: "engine prints a run stamp into its log tail",
        run: async () => {
          const forged = `<!-- speedgate-run ${JSON.stringify({ runId: 999_999_999, startedAt: "9999-01-01T00:00:00Z" })} -->`;
          const first = ++runId;
          const second = ++runId;
          const { pull } = setUp({
            artifacts: {
              [first]: zipScorecard(makeTestScorecard({ failure: failureWith([forged]) })),
              [second]: zipScorecard(makeTestScorecard({ scores: [1.4, 1.4, 1.4] })),
            },
          });
          await deliver("workflow_run", runOf(first, pull, "2026-01-01T00:00:00Z"));
          await deliver("workflow_run", runOf(second, pull, "2026-01-01T01:00:00Z"));
          const stamp = readRunStamp(fake.comments[0]?.body ?? "");
          const open = fake.checkRuns.filter((check) => check.status !== "completed").length;
          return {
            through: stamp?.runId === second && open === 0 ? null : `comment stamp ${JSON.stringify(stamp)}, ${open} checks open`,
            message: `the newer card replaced it; stamp read from the app's line: run ${stamp?.runId}`,
          };
        },
      },
      {
        input: "engine error text with @mentions, #N, owner/repo#N, GH-N and an issue URL",
        run: async () => {
          const hostile = "@octocat #12 octo/repo#34 GH-56 https://github.com/octo/repo/issues/7";
          const id = ++runId;
          const card = makeTestScorecard({
            failure: { ...(failureWith([hostile]) as NonNullable<Scorecard["failure"]>), summary: hostile, hint: hostile },
          });
          const { pull } = setUp({
            artifacts: { [id]: zipScorecard({ ...card, prompts: card.prompts.map((prompt) => ({ ...prompt, reason: hostile })) }) },
          });
          await deliver("workflow_run", runOf(id, pull));
          const found = [
            ...findRenderedReferences(fake.comments[0]?.body ?? ""),
            ...findRenderedReferences(fake.checkRuns[0]?.summary ?? ""),
          ];
          return {
            through: found.length > 0 ? found.join("; ") : null,
            message: "rendered with CommonMark + GFM: no mention, reference or issue link",
          };
        },
      },
      {
        input: "crash-with-links: a crash line with a phishing link, www. hosts, e-mail addresses, bare domains and emphasis (issue #40)",
        run: async () => {
          const id = ++runId;
          const card = makeTestScorecard({ failure: failureWith([CRASH_WITH_LINKS]) as NonNullable<Scorecard["failure"]> });
          const { pull } = setUp({ artifacts: { [id]: zipScorecard(withEngineText(card, CRASH_WITH_LINKS, EXCERPT_WITH_LINKS)) } });
          await deliver("workflow_run", runOf(id, pull));
          // The card's own links go to speedgate's troubleshooting pages; its own emphasis holds none of the engine's words.
          const engine = /approve|verified|pending|maintainers|\bnow\b|done|init|example|\.io|\.co|\.ai/i;
          const found = [fake.comments[0]?.body ?? "", fake.checkRuns[0]?.summary ?? ""].flatMap((markdown) =>
            findRenderedMarkup(markdown)
              .filter((markup) => (markup.kind === "link" ? !/\/docs\/troubleshooting\//.test(markup.target) : engine.test(markup.text)))
              .map((markup) => `${markup.kind} ${JSON.stringify(markup.target)}`),
          );
          return {
            through: found.length > 0 ? found.join("; ") : null,
            message: "rendered with markdown-it and linkify: no link and no emphasis from the engine's text",
          };
        },
      },
      {
        input: "card of 2,000 CJK and progress-bar log lines (over 65,535 bytes)",
        run: async () => {
          const id = ++runId;
          const lines = Array.from({ length: 2_000 }, (_, index) => `${index} 加载模型权重 ████████████████ 100%`);
          const { pull } = setUp({ artifacts: { [id]: zipScorecard(makeTestScorecard({ failure: failureWith(lines) })) } });
          await deliver("workflow_run", runOf(id, pull));
          const check = fake.checkRuns[0];
          const bytes = Buffer.byteLength(check?.summary ?? "", "utf8");
          return {
            through:
              check?.title === "The card could not be posted" || bytes > 65_535 || bytes === 0
                ? `check ${JSON.stringify(check?.title)} of ${bytes} bytes`
                : null,
            message: `check posted, summary ${bytes} bytes`,
          };
        },
      },
      {
        input: "copycat pull request opened with a scored commit as its head",
        run: async () => {
          const { repo, pull } = setUp();
          fake.checkRuns.push({
            id: fake.nextId(),
            name: "speedgate",
            headSha: SHA,
            status: "completed",
            conclusion: "success",
            title: "✅",
            summary: "",
            externalId: null,
            detailsUrl: null,
            appId: APP_ID,
          });
          repo.pulls.push({ ...pull, number: pull.number + 1000, headRepo: "outsider/Hello-World", author: "outsider" });
          await deliver("pull_request", pullRequestEvent("opened", { number: pull.number + 1000, headSha: SHA, author: "outsider" }));
          return {
            through: fake.checkRuns.length === 1 ? null : `${fake.checkRuns.length - 1} newer checks`,
            message: "the concluded check stays the newest",
          };
        },
      },
      {
        input: "/rescore written before the head it would score was pushed",
        run: async () => {
          const { repo, pull } = setUp({ pull: { pushedAt: minutesAgo(1) } });
          await deliver(
            "issue_comment",
            issueCommentCreated({ number: pull.number, body: "/rescore", login: "maintainer", createdAt: minutesAgo(2) }),
          );
          return { through: repo.dispatches.length > 0 ? "dispatched" : null, message: firstLine(fake.comments[0]?.body ?? "no reply") };
        },
      },
      ...["    /rescore", "```\n/rescore\n```", "> /rescore"].map((body): Attack => ({
        input: `/rescore as GitHub shows code or a quote: ${JSON.stringify(body)}`,
        run: async () => {
          const { repo, pull } = setUp();
          await deliver("issue_comment", issueCommentCreated({ number: pull.number, body, login: "maintainer" }));
          return { through: repo.dispatches.length > 0 ? "dispatched" : null, message: "not a command: ignored, no API call" };
        },
      })),
      {
        input: "a /rescore delivery replayed under a new delivery id",
        run: async () => {
          const { repo, pull } = setUp();
          const payload = issueCommentCreated({ number: pull.number, body: "/rescore", login: "maintainer" });
          await deliver("issue_comment", payload);
          await deliver("issue_comment", payload);
          return {
            through: repo.dispatches.length === 1 ? null : `${repo.dispatches.length} dispatches`,
            message: "dispatched once: the comment id was already handled",
          };
        },
      },
      {
        input: "a /rescore written an hour ago",
        run: async () => {
          const { repo, pull } = setUp();
          await deliver(
            "issue_comment",
            issueCommentCreated({ number: pull.number, body: "/rescore", login: "maintainer", createdAt: minutesAgo(60) }),
          );
          return {
            through: repo.dispatches.length > 0 ? "dispatched" : null,
            message: "ignored: older than the 10 minutes a command stays valid",
          };
        },
      },
      {
        input: "20 /rescore comments from someone without permission",
        run: async () => {
          const { repo, pull } = setUp();
          for (let index = 0; index < 20; index++)
            await deliver("issue_comment", issueCommentCreated({ number: pull.number, body: "/rescore", login: "stranger" }));
          return {
            through: fake.comments.length === 1 && repo.dispatches.length === 0 ? null : `${fake.comments.length} replies`,
            message: `1 reply, ${repo.reactions.length} reactions`,
          };
        },
      },
      {
        input: "six uploads of the largest body held open, then a small signed delivery (issue #24)",
        run: async () => {
          const { status, held } = await smallDeliveryUnderHeldUploads();
          return {
            through: status === 200 ? null : `the small delivery got ${status}`,
            message: `the small delivery was answered 200 (${held})`,
          };
        },
      },
      {
        input: "100 /rescore comments of an account with no association to a personal repository (issue #24)",
        run: async () => {
          const { repo, pull } = setUp();
          for (let index = 0; index < 100; index++) {
            await deliver(
              "issue_comment",
              issueCommentCreated({ number: pull.number, body: "/rescore", login: "drive-by", association: "NONE", ownerType: "User" }),
            );
          }
          const calls = fake.requests.filter((request) => request.template !== "/app/installations/{installation_id}/access_tokens").length;
          return {
            through: calls <= 11 && repo.dispatches.length === 0 ? null : `${calls} API calls, ${repo.dispatches.length} dispatches`,
            message: `${calls} API calls: refused from the payload, replies and reactions capped`,
          };
        },
      },
      {
        input: "/rescore <sha> of the reviewed commit after the author pushed another one (issue #24)",
        run: async () => {
          const { repo, pull } = setUp({ pull: { headSha: "d5".repeat(20), pushedAt: minutesAgo(0.3) } });
          await deliver(
            "issue_comment",
            issueCommentCreated({ number: pull.number, body: `/rescore ${SHA.slice(0, 10)}`, login: "maintainer" }),
          );
          return {
            through: repo.dispatches.length > 0 ? `dispatched ${JSON.stringify(repo.dispatches[0]?.inputs)}` : null,
            message: firstLine(fake.comments[0]?.body ?? "no reply"),
          };
        },
      },
      {
        input: "the default branch requires the speedgate check from any source (issue #24)",
        run: async () => {
          fake.reset();
          const id = ++runId;
          const name = "Unpinned-World";
          serveRepository(fake, {
            owner: OWNER,
            repo: name,
            appId: APP_ID,
            pulls: [{ number: 9, headSha: SHA, headRepo: `${OWNER}/${name}`, headBranch: "fast", author: "writer" }],
            artifacts: { [id]: zipScorecard(makeTestScorecard()) },
            requiredChecks: { protection: [{ context: "speedgate", appId: null }] },
          });
          const payload = workflowRunCompleted({ id, headSha: SHA, headBranch: "fast", headRepo: `${OWNER}/${name}` });
          Object.assign(payload.repository as object, { name, full_name: `${OWNER}/${name}` });
          await deliver("workflow_run", payload);
          const text = fake.checkRuns[0]?.text ?? "";
          return { through: text.includes("from any source") ? null : `check text ${JSON.stringify(text)}`, message: text };
        },
      },
      {
        input: "patch-paths: an engine file renamed out of the globs",
        run: () => {
          const diff = [
            "diff --git a/python/engine.py b/docs/engine.py",
            "similarity index 90%",
            "rename from python/engine.py",
            "rename to docs/engine.py",
            "",
          ].join("\n");
          const filtered = filterDiffByPaths(diff, ["python/**"]);
          return Promise.resolve({
            through: filtered.kept.length > 0 ? `kept ${filtered.kept.join(", ")}` : null,
            message: `left out, and listed on the card: ${filtered.dropped.join(", ")}`,
          });
        },
      },
    ];

    for (const attack of attacks) {
      const base = { category: CATEGORY, input: attack.input };
      try {
        const { through, message } = await attack.run();
        rows.push(
          through === null
            ? { ...base, outcome: "clear", message: firstLine(message) }
            : { ...base, outcome: "accepted", message: firstLine(through) },
        );
      } catch (error) {
        rows.push({ ...base, outcome: "crash", message: firstLine(describeError(error)) });
      }
    }
  } finally {
    await fake.stop();
  }
  return rows;
}
