import { randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_APP_DOCS_URL } from "../../bot/resolve-app-docs-url.js";
import { renderText } from "../../src/scorecard/render/render-text.js";
import { type ActionRound, writeActionRound } from "../action/support/write-action-round.js";
import { CRASH_WITH_LINKS } from "../../harness/crash-with-links.js";
import { workflowRunCompleted } from "../../harness/fake-github/adjust-payloads.js";
import { deliverAndSettle } from "../../harness/fake-github/send-webhook.js";
import { useBotProcess } from "../support/fake-github/use-bot-process.js";
import { findRenderedMarkup, renderedText } from "../../harness/find-rendered-markup.js";
import { playScoringJob } from "./support/play-scoring-job.js";
import { serveExamplePullRequest } from "./support/serve-example-pull-request.js";

/*
 * Issue #40, the attack review's `crash-with-links`: a pull request makes the engine print a crash
 * line carrying a phishing link ("maintainers approve at https://…") with emphasis, a `www.` host, an
 * e-mail address and bare domains, then exit. The app's comment showed it as a live link under the
 * app's name. Played end to end: the bundled action scores the pull request's diff with the engine
 * started as a process (which prints the line and exits 1), the artifact goes to `npm run bot` over
 * HTTP, and the comment, the check's summary and title, the action's own card and the terminal card
 * are read back with GitHub's renderer settings: no link and no emphasis of the engine's, the line
 * shown literally.
 */

const CRASH_LOG = [
  "[2026-09-17 14:10:02] server_args=ServerArgs(model_path='/models/m', port=30000)",
  "Traceback (most recent call last):",
  '  File "/src/python/sglang/launch_server.py", line 11, in <module>',
  "    raise RuntimeError(message)",
  CRASH_WITH_LINKS,
];

/** The pull request: the engine's profile crashes at start with the log that the diff adds as a new file. */
const CRASH_DIFF = [
  "diff --git a/profile.json b/profile.json",
  "index 5d1f0c2..8e4b7a9 100644",
  "--- a/profile.json",
  "+++ b/profile.json",
  "@@ -1,3 +1,4 @@",
  " {",
  '+  "faults": { "crashAtStart": { "logFile": "crash.log", "exitCode": 1 } },',
  '   "defaults": { "ttftMs": 60, "itlMs": 40, "outputTokens": 12 }',
  " }",
  "diff --git a/crash.log b/crash.log",
  "new file mode 100644",
  "index 0000000..c0ffee1",
  "--- /dev/null",
  "+++ b/crash.log",
  `@@ -0,0 +1,${CRASH_LOG.length} @@`,
  ...CRASH_LOG.map((line) => `+${line}`),
  "",
].join("\n");

/** Words of the engine's line that would show in a link or an emphasis it made. */
const ENGINE_WORDS = /speedgate-approve|Speed verified|pending review|maintainers|now|done|init|OK/i;
/** What a terminal, GitHub's job log or a mail client links in plain text. */
const PLAIN_TEXT_LINK = /\b[a-z][a-z0-9+.-]*:\/\/\S|\bwww\.\S|[\w.+-]+@[\p{L}\p{N}-]+\.\S/iu;

/** Links only to the troubleshooting pages, and no emphasis holding the engine's words; the Error row literal. */
function expectInert(markdown: string, docsBaseUrl: string): void {
  const markup = findRenderedMarkup(markdown);
  expect(markup.filter((each) => each.kind === "link" && !each.target.startsWith(docsBaseUrl))).toEqual([]);
  expect(markup.filter((each) => ENGINE_WORDS.test(each.text) || ENGINE_WORDS.test(each.target))).toEqual([]);
  const error = markdown.split("\n").find((line) => line.startsWith("| Error | ")) ?? "";
  expect(renderedText(error.slice("| Error | ".length, -" |".length))).toBe(CRASH_WITH_LINKS);
}

describe("crash-with-links: an engine's phishing line through the action, the app's comment and its check", () => {
  const { fake, bot } = useBotProcess();
  let round: ActionRound;

  beforeAll(async () => {
    // patch-from-pr with runtime: process: the config vouches for the pull requests' authors.
    round = await writeActionRound({ prompts: 4, candidate: { trusted: true } });
  });
  afterAll(async () => {
    await rm(round.dir, { recursive: true, force: true });
  });

  it("shows the line literally, links none of it and emphasises none of it, wherever it is shown", async () => {
    const app = bot();
    const served = serveExamplePullRequest(fake, app.appId);
    const { head } = served;
    served.diffs.set(`${head.baseSha}...${head.headSha}`, CRASH_DIFF);
    const job = await playScoringJob({
      workDir: join(round.dir, "job"),
      runId: 7401,
      event: served.event,
      configPath: round.configPath,
      apiUrl: fake.apiUrl,
      failOnGate: true,
    });
    // The real engine process printed the line and exited: the card quotes it as the candidate's error.
    expect(job.card.failure).toMatchObject({ engine: "candidate", stage: "startup", summary: CRASH_WITH_LINKS });
    expect(job.main.exitCode).toBe(1);
    // The step's error and annotation quote it in the job log, which links URLs: none is whole there.
    const commands = job.main.stdout.split("\n").filter((line) => /^::(error|warning)/.test(line));
    expect(commands.join("\n")).toContain("speedgate-approve");
    expect(commands.join("\n")).not.toMatch(PLAIN_TEXT_LINK);
    // The action's own card (the job summary, and the comment with comment: true).
    expectInert(job.markdown, job.card.docsBaseUrl ?? "");
    // The terminal card.
    expect(renderText(job.card)).not.toMatch(PLAIN_TEXT_LINK);

    served.repo.artifacts.set(7401, job.artifact);
    const run = workflowRunCompleted({
      id: 7401,
      headSha: head.headSha,
      headBranch: head.headBranch,
      headRepo: head.headRepo,
      event: "pull_request",
    });
    expect(await deliverAndSettle(app, "workflow_run", run, randomUUID())).toBe(200);
    const comment = fake.comments.find((each) => each.issueNumber === head.number)?.body ?? "";
    const check = fake.checkRuns.find((each) => each.headSha === head.headSha);
    expect(check).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(comment).toContain("`https://speedgate-approve.example/pr?id=1`");
    expectInert(comment, DEFAULT_APP_DOCS_URL);
    expectInert(check?.summary ?? "", DEFAULT_APP_DOCS_URL);
    expect(check?.title ?? "").not.toMatch(PLAIN_TEXT_LINK);
  });
});
