import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LABEL_RUN_ID } from "../../src/docker/resource-labels.js";
import { renderWithCodeSpans } from "../../src/safe-text/render-inline-code.js";
import { escapeCell } from "../../src/scorecard/render/render-markdown.js";
import { ENGINE_SOURCE_DIR } from "../../harness/docker/build-test-engine-image.js";
import { dockerTestContext } from "../support/docker/docker-test-context.js";
import { listRunResources } from "../support/docker/list-run-resources.js";
import { writeDockerRound } from "../support/docker/write-docker-round.js";
import { OWNER, REPO, issueCommentCreated, pullRequestEvent, workflowRunCompleted } from "../../harness/fake-github/adjust-payloads.js";
import { deliverAndSettle } from "../../harness/fake-github/send-webhook.js";
import type { BotProcess } from "../support/fake-github/start-bot-process.js";
import { useBotProcess } from "../support/fake-github/use-bot-process.js";
import { getFreePort } from "../support/get-free-port.js";
import { CUDA_OOM_DIFF, SGLANG_OOM_LOG_LINES, SLOWDOWN_DIFF, SPEEDUP_DIFF } from "./support/engine-diffs.js";
import { expectCardPosted } from "./support/expect-card-posted.js";
import { type ScoringJob, playScoringJob } from "./support/play-scoring-job.js";
import { dispatchedRunTitle, workflowDispatch } from "./support/runner-events.js";
import { type ExamplePullRequest, serveExamplePullRequest } from "./support/serve-example-pull-request.js";

/*
 * The whole flow as a user's repository runs it, on one machine: the bundled action on a simulated
 * runner scores the pull request's diff (fetched from the GitHub fake) with the Docker runtime and
 * the reference engine image; its card is uploaded as the `speedgate-scorecard` artifact; GitHub
 * tells the app (`npm run bot`) that the run completed; the app posts the comment and the check.
 */

const context = dockerTestContext();
/** The default branch's commit a dispatched run checks out: nothing to do with the pull request. */
const MAIN_SHA = "3a1f".repeat(10);

describe.skipIf(!context)("a pull request scored end to end: action on Docker, artifact, app, GitHub", () => {
  const { fake, bot: running } = useBotProcess();
  let bot: BotProcess;
  let dir: string;
  let configPath: string;
  let served: ExamplePullRequest;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "speedgate-e2e-"));
    // The maintainers' round config: the candidate is the image's engine source with the pull request's diff applied.
    ({ configPath } = await writeDockerRound(join(dir, "round"), {
      image: context?.image ?? "",
      port: await getFreePort(),
      patch: null,
      candidate: { sourceDir: ENGINE_SOURCE_DIR },
      prompts: 10,
    }));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    bot = running();
    served = serveExamplePullRequest(fake, bot.appId);
  });

  const deliver = async (name: string, payload: unknown): Promise<number> => await deliverAndSettle(bot, name, payload, randomUUID());

  /** The pull_request workflow's run on the pull request's branch, as GitHub reports it when it completes. */
  const pullRequestRun = (id: number, conclusion: string) => {
    const { head } = served;
    return workflowRunCompleted({
      id,
      headSha: head.headSha,
      headBranch: head.headBranch,
      headRepo: head.headRepo,
      event: "pull_request",
      conclusion,
    });
  };

  /** Plays the job, checks the runner is left clean, and uploads the artifact for the run. */
  async function scoringJob(
    name: string,
    runId: number,
    options: { event?: ScoringJobEvent; failOnGate?: boolean } = {},
  ): Promise<ScoringJob> {
    const job = await playScoringJob({
      workDir: join(dir, name),
      runId,
      event: options.event ?? served.event,
      configPath,
      apiUrl: fake.apiUrl,
      failOnGate: options.failOnGate ?? true,
    });
    expect(job.main.state.runtime, job.main.stdout + job.main.stderr).toBe("docker");
    expect(job.post.exitCode, job.post.stdout + job.post.stderr).toBe(0);
    const docker = context?.docker ?? missing();
    const runLabel = `${LABEL_RUN_ID}=${job.main.state["run-id"] ?? missing()}`;
    expect(await listRunResources(docker, job.main.state["run-id"] ?? "")).toEqual({ containers: [], networks: [] });
    expect(await docker.listImages({ all: true, filters: { label: [runLabel] } })).toEqual([]);
    served.repo.artifacts.set(runId, job.artifact);
    return job;
  }

  it("a passing pull request: one comment holding the card, and a success check titled with the verdict", async () => {
    const { head } = served;
    served.diffs.set(`${head.baseSha}...${head.headSha}`, SPEEDUP_DIFF);
    const job = await scoringJob("passing", 7001);
    expect(job.main.exitCode, job.main.stdout + job.main.stderr).toBe(0);
    expect(served.compared).toEqual([`${head.baseSha}...${head.headSha}`]);
    expect(job.card).toMatchObject({
      failure: null,
      promptsScored: 10,
      source: { pullRequest: head.number, headSha: head.headSha, runId: "7001" },
    });
    expect(job.card.gate.passed).toBe(true);

    expect(await deliver("workflow_run", pullRequestRun(7001, "success"))).toBe(200);
    expectCardPosted(fake, { pullRequest: head.number, headSha: head.headSha, job });
    expect(fake.checkRuns[0]?.conclusion).toBe("success");
  });

  it(
    "a candidate that dies of CUDA OOM at startup: the comment and the " + "failed check show the kind, the hint and the log tail",
    async () => {
      const { head } = served;
      served.diffs.set(`${head.baseSha}...${head.headSha}`, CUDA_OOM_DIFF);
      const job = await scoringJob("cuda-oom", 7002);
      expect(job.main.exitCode).toBe(1);
      expect(job.main.outputs).toMatchObject({ "failure-kind": "cuda_oom", "gate-passed": "false" });
      const failure = job.card.failure;
      expect(failure).toMatchObject({
        engine: "candidate",
        stage: "startup",
        kind: "cuda_oom",
        label: "CUDA out of memory during CUDA graph capture",
        exitCode: 1,
      });
      expect(failure?.summary).toMatch(/^torch\.OutOfMemoryError: CUDA out of memory\. Tried to allocate 136\.00 MiB/);
      expect(failure?.hint).toContain("--mem-fraction-static");
      // The engine's whole output, in order, down to the teardown lines after the error.
      expect(failure?.logTail.slice(-SGLANG_OOM_LOG_LINES.length)).toEqual(SGLANG_OOM_LOG_LINES);

      // fail-on-gate failed the job; the upload step still ran (if: always()).
      expect(await deliver("workflow_run", pullRequestRun(7002, "failure"))).toBe(200);
      expectCardPosted(fake, { pullRequest: head.number, headSha: head.headSha, job });
      const body = fake.comments[0]?.body ?? "";
      expect(body).toContain("`cuda_oom`: CUDA out of memory during CUDA graph capture");
      // The hint's backticked flags are code on the card.
      expect(body).toContain(renderWithCodeSpans(failure?.hint ?? "missing hint", escapeCell));
      expect(body).toContain("`--mem-fraction-static`");
      expect(body).toContain(`Log tail: last ${failure?.logTail.length} lines`);
      expect(body).toContain(failure?.logTail.join("\n") ?? "missing log tail");
      expect(fake.checkRuns[0]?.conclusion).toBe("failure");
      expect(fake.checkRuns[0]?.title).toContain("CUDA out of memory during CUDA graph capture");
    },
  );

  it(
    "/rescore after a push: the app dispatches the new head, the runner " +
      "scores it, and its card replaces the first in the same comment",
    async () => {
      const { head } = served;
      served.diffs.set(`${head.baseSha}...${head.headSha}`, SPEEDUP_DIFF);
      const first = await scoringJob("before-push", 7003);
      expect(await deliver("workflow_run", pullRequestRun(7003, "success"))).toBe(200);
      expectCardPosted(fake, { pullRequest: head.number, headSha: head.headSha, job: first });
      const commentId = fake.comments[0]?.id;
      const card = () => fake.comments.find((comment) => comment.id === commentId);

      // The author pushes a commit that slows the engine down; GitHub tells the app.
      const pushed = "5eed".repeat(10);
      served.pull.headSha = pushed;
      served.diffs.set(`${head.baseSha}...${pushed}`, SLOWDOWN_DIFF);
      expect(
        await deliver("pull_request", pullRequestEvent("synchronize", { number: head.number, headSha: pushed, author: head.author })),
      ).toBe(200);

      // A maintainer asks for scoring of the new head: the app reads their permission and dispatches it.
      expect(
        await deliver(
          "issue_comment",
          issueCommentCreated({ number: head.number, body: "/rescore", login: "maintainer", commentId: 9901 }),
        ),
      ).toBe(200);
      expect(fake.calls("GET", "/repos/{owner}/{repo}/collaborators/{username}/permission").map((call) => call.path)).toEqual([
        `/repos/${OWNER}/${REPO}/collaborators/maintainer/permission`,
      ]);
      expect(served.repo.dispatches).toEqual([
        {
          workflow: "speedgate.yml",
          ref: "main",
          inputs: { pr: String(head.number), sha: pushed, base: head.baseSha },
          runId: expect.any(Number) as number,
        },
      ]);
      expect(fake.calls("POST", "/repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches")).toMatchObject([
        {
          path: `/repos/${OWNER}/${REPO}/actions/workflows/speedgate.yml/dispatches`,
          body: { ref: "main", inputs: { pr: String(head.number), sha: pushed, base: head.baseSha } },
        },
      ]);
      expect(served.repo.reactions).toEqual([{ commentId: 9901, content: "eyes" }]);
      const dispatched = served.repo.dispatches[0] ?? missing();
      const queued = fake.checkRuns.filter((check) => check.headSha === pushed);
      expect(queued).toMatchObject([{ status: "queued", externalId: `speedgate:pr=${head.number}:run=${dispatched.runId}` }]);

      // The runner plays the dispatched run: the fork-safe workflow (fail-on-gate false) on the default branch.
      const second = await scoringJob("rescored", dispatched.runId, { event: workflowDispatch(dispatched.inputs), failOnGate: false });
      expect(second.main.exitCode, second.main.stdout + second.main.stderr).toBe(0);
      expect(served.compared.at(-1)).toBe(`${head.baseSha}...${pushed}`);
      expect(second.card.source).toMatchObject({ pullRequest: head.number, headSha: pushed, runId: String(dispatched.runId) });
      expect(second.card.gate.passed).toBe(false);

      const completed = workflowRunCompleted({
        id: dispatched.runId,
        event: "workflow_dispatch",
        headSha: MAIN_SHA,
        headBranch: "main",
        title: dispatchedRunTitle({ pr: String(head.number), sha: pushed }),
        startedAt: "2026-01-01T00:30:00Z",
      });
      expect(await deliver("workflow_run", completed)).toBe(200);

      expectCardPosted(fake, { pullRequest: head.number, headSha: pushed, job: second });
      expect(card()?.body).not.toContain(first.markdown.trimEnd());
      // The card shows the pull request's earlier commit, from the app's history.
      expect(card()?.body).toMatch(
        new RegExp(`Earlier commits: [0-9.]+× \\(\`${head.headSha.slice(0, 7)}\`\\) → \\*\\*[0-9.]+×\\*\\* \\(this commit\\)`),
      );
      // The maintainer was told which commit is being scored.
      expect(fake.comments.filter((comment) => comment.id !== commentId).map((comment) => comment.body)).toEqual([
        expect.stringMatching(new RegExp(`^Scoring ${pushed} `)),
      ]);
      // The check the app queued on the new head is the one concluded, in place; the old head keeps its own.
      expect(fake.checkRuns.find((check) => check.headSha === pushed)?.id).toBe(queued[0]?.id);
      expect(fake.checkRuns.find((check) => check.headSha === pushed)?.conclusion).toBe("failure");
      expect(fake.checkRuns.filter((check) => check.headSha === head.headSha)).toMatchObject([
        { status: "completed", conclusion: "success" },
      ]);
    },
  );
});

type ScoringJobEvent = Parameters<typeof playScoringJob>[0]["event"];

function missing(): never {
  throw new Error("expected a value the test set up");
}
