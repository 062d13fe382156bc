import { randomUUID } from "node:crypto";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { markedProcesses } from "../support/find-marked-processes.js";
import { FASTER_PATCH, type ActionRound, writeActionRound } from "../action/support/write-action-round.js";
import { workflowRunCompleted } from "../../harness/fake-github/adjust-payloads.js";
import { deliverAndSettle } from "../../harness/fake-github/send-webhook.js";
import { useBotProcess } from "../support/fake-github/use-bot-process.js";
import { expectCardPosted } from "./support/expect-card-posted.js";
import { playScoringJob } from "./support/play-scoring-job.js";
import { serveExamplePullRequest } from "./support/serve-example-pull-request.js";

/*
 * The same flow as the Docker end-to-end test with the process runtime, so it runs on any machine:
 * the bundled action scores the pull request's diff from the GitHub fake with engines started as
 * processes, the artifact is served for the run, and the running app posts the comment and check.
 */

describe("a pull request scored end to end: action on the process runtime, artifact, app, GitHub", () => {
  const { fake, bot } = useBotProcess();
  let round: ActionRound;

  beforeAll(async () => {
    // patch-from-pr with runtime: process: the config vouches for the pull requests' authors.
    round = await writeActionRound({ prompts: 10, candidate: { trusted: true } });
  });
  afterAll(async () => {
    await rm(round.dir, { recursive: true, force: true });
  });

  it("a passing pull request: one comment holding the card, a success check, and no engine left running", async () => {
    const app = bot();
    const { appId } = app;
    const served = serveExamplePullRequest(fake, appId);
    const { head } = served;
    served.diffs.set(`${head.baseSha}...${head.headSha}`, FASTER_PATCH);
    const job = await playScoringJob({
      workDir: join(round.dir, "job"),
      runId: 7101,
      event: served.event,
      configPath: round.configPath,
      apiUrl: fake.apiUrl,
      failOnGate: true,
    });
    expect(job.main.exitCode, job.main.stdout + job.main.stderr).toBe(0);
    expect(job.main.state.runtime).toBe("process");
    expect(job.post.exitCode).toBe(0);
    expect(job.card).toMatchObject({
      failure: null,
      promptsScored: 10,
      source: { pullRequest: head.number, headSha: head.headSha, runId: "7101" },
    });
    expect(job.card.gate.passed).toBe(true);
    expect((await readFile(round.pidFile, "utf8")).trim().split("\n")).toHaveLength(2);
    expect(markedProcesses(round.mark)).toEqual([]);

    served.repo.artifacts.set(7101, job.artifact);
    const run = workflowRunCompleted({
      id: 7101,
      headSha: head.headSha,
      headBranch: head.headBranch,
      headRepo: head.headRepo,
      event: "pull_request",
    });
    expect(await deliverAndSettle(app, "workflow_run", run, randomUUID())).toBe(200);
    expectCardPosted(fake, { pullRequest: head.number, headSha: head.headSha, job });
    expect(fake.checkRuns[0]?.conclusion).toBe("success");
  });
});
