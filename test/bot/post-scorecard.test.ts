import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Probot } from "probot";
import { beforeAll, describe, expect, it } from "vitest";
import { OWNER, REPO, issueCommentCreated, workflowRunCompleted } from "../../harness/fake-github/adjust-payloads.js";
import { createTestProbot } from "../../harness/fake-github/create-test-probot.js";
import { makeTestScorecard, zipScorecard } from "../../harness/fake-github/make-test-scorecard.js";
import { type FakePull, serveRepository } from "../../harness/fake-github/serve-repository.js";
import { DEFAULT_APP_DOCS_URL } from "../../bot/resolve-app-docs-url.js";
import type { EngineFailure } from "../../src/vocabulary/engine-failure.js";
import { makeCard, seedOomFailure } from "../../harness/make-card.js";
import { makeScenarioRound } from "../support/make-scenario-round.js";
import { useFakeGitHub } from "../support/fake-github/use-fake-github.js";
import { toVersion1 } from "../support/version-one-card.js";

const SHA = "1".repeat(40);
const APP_ID = 88;
const PULL: FakePull = { number: 21, headSha: SHA, headRepo: `${OWNER}/${REPO}`, headBranch: "topic", author: "writer" };

/** workflow_run.completed handled in-process through probot.receive, for the cases that need no HTTP. */
describe("postScorecard", () => {
  const fake = useFakeGitHub();
  let probot: Probot;

  beforeAll(async () => {
    probot = await createTestProbot({ fakeUrl: fake.url, appId: APP_ID });
  });

  const receive = async (name: string, payload: unknown): Promise<void> =>
    await probot.receive({ id: randomUUID(), name, payload } as Parameters<Probot["receive"]>[0]);

  it("ignores runs of other workflows after reading the repository config", async () => {
    serveRepository(fake, {
      owner: OWNER,
      repo: REPO,
      appId: APP_ID,
      pulls: [PULL],
      groups: ["app", "config"],
      config: "workflow: score.yml\n",
    });
    await receive("workflow_run", workflowRunCompleted({ id: 1, headSha: SHA, workflowFile: "speedgate.yml" }));
    expect(fake.requests.map((request) => request.template)).toEqual([
      "/app/installations/{installation_id}/access_tokens",
      "/repos/{owner}/{repo}/contents/{path}",
    ]);
  });

  it("uses the repository's threshold, not the one in the card", async () => {
    const card = makeTestScorecard({ scores: Array.from({ length: 12 }, () => 1.1), minRoundScore: 1.0 });
    serveRepository(fake, {
      owner: OWNER,
      repo: REPO,
      appId: APP_ID,
      pulls: [PULL],
      config: "gate:\n  minRoundScore: 1.25\n",
      artifacts: { 2: zipScorecard(card) },
    });
    await receive("workflow_run", workflowRunCompleted({ id: 2, headSha: SHA, headBranch: "topic" }));
    expect(fake.checkRuns).toMatchObject([{ conclusion: "failure" }]);
    expect(fake.checkRuns[0]?.title).toBe("❌ Round score 1.10× is below the gate's 1.25×");
  });

  it("never passes a card with too few prompts for a verdict, and says so in the check's title", async () => {
    const card = makeTestScorecard({ scores: [1.5, 1.5, 1.5] });
    serveRepository(fake, { owner: OWNER, repo: REPO, appId: APP_ID, pulls: [PULL], artifacts: { 9: zipScorecard(card) } });
    await receive("workflow_run", workflowRunCompleted({ id: 9, headSha: SHA, headBranch: "topic" }));
    expect(fake.checkRuns).toMatchObject([{ conclusion: "failure" }]);
    expect(fake.checkRuns[0]?.title).toBe("❌ Round score 1.50×, but too few prompts for a verdict: 3 compared, gate.minPrompts is 10");
  });

  it("fails the check of a candidate that crashed mid-benchmark: title leads with the crash, summary has both reasons", async () => {
    const crashed: EngineFailure = {
      ...seedOomFailure(),
      stage: "benchmark",
      kind: "exited",
      label: "exited with code 1",
      logTail: ["RuntimeError: boom"],
    };
    const plans = [
      ...Array.from({ length: 10 }, () => ({ speedup: 1.5 })),
      { candidateError: "engine died" },
      { candidateError: "engine died" },
    ];
    serveRepository(fake, {
      owner: OWNER,
      repo: REPO,
      appId: APP_ID,
      pulls: [PULL],
      artifacts: { 7: zipScorecard(makeCard(plans, { failure: crashed })) },
    });
    await receive("workflow_run", workflowRunCompleted({ id: 7, headSha: SHA, headBranch: "topic" }));
    expect(fake.checkRuns).toMatchObject([{ conclusion: "failure" }]);
    const reasons = [
      "the candidate engine failed: candidate engine failed at benchmark (exited with code 1)",
      "2 of 12 prompts (16.7%) were not scored (2 zeroed), more than gate.maxUnscored 10%",
    ];
    // #39: the crash leads the title, before the score of what ran before it; the summary's gate row gives both reasons.
    expect(fake.checkRuns[0]?.title).toBe(
      "❌ Candidate engine died during the benchmark (exited with code 1); round score before it 1.50×",
    );
    expect(fake.checkRuns[0]?.summary).toContain(
      `| Gate | ❌ does not pass: ${reasons.join("; ").replace("gate.maxUnscored", "`gate.maxUnscored`")} |`,
    );
  });

  it(
    "gives no verdict, in the check's title and the comment, when the " + "runner's GPU was busy, and tells the maintainers what to free",
    async () => {
      const busy = readFileSync(new URL("../../examples/cards/candidate-cuda-oom-busy-runner.json", import.meta.url), "utf8");
      serveRepository(fake, { owner: OWNER, repo: REPO, appId: APP_ID, pulls: [PULL], artifacts: { 19: zipScorecard(busy) } });
      await receive("workflow_run", workflowRunCompleted({ id: 19, headSha: SHA, headBranch: "topic" }));
      // Not a pass: a required check must not let an unmeasured patch through; but not the patch's ❌ either.
      expect(fake.checkRuns).toMatchObject([{ conclusion: "failure" }]);
      expect(fake.checkRuns[0]?.title).toBe(
        "⚠️ No verdict: the runner's GPU was busy, not the patch (GPU 3 was held by python3, pid 48211, 11.0 GiB, when the candidate " +
          "started)",
      );
      for (const text of [fake.comments[0]?.body ?? "", fake.checkRuns[0]?.summary ?? ""]) {
        expect(text).toContain("Free GPU 3 on gpu-runner-3: stop what holds it (python3, pid 48211, 11.0 GiB), then comment `/rescore`.");
        expect(text).not.toContain("does not pass");
      }
    },
  );

  it(
    "concludes a round with scenarios by every scenario under the " + "repository's gate, and titles the check with how many passed",
    async () => {
      // 0.95× passes the bar its scenario records (0.9); the repository's bar (1.0) is the one that holds.
      const card = makeScenarioRound([
        { name: "decode-c1", speedup: 1.2 },
        { name: "prefill-c32", speedup: 0.95, minRoundScore: 0.9 },
      ]);
      const forged = { ...card, gate: { ...card.gate, passed: true, reason: "2 of 2 scenarios passed", reasons: [] } };
      serveRepository(fake, { owner: OWNER, repo: REPO, appId: APP_ID, pulls: [PULL], artifacts: { 23: zipScorecard(forged) } });
      await receive("workflow_run", workflowRunCompleted({ id: 23, headSha: SHA, headBranch: "topic" }));
      expect(fake.checkRuns).toMatchObject([{ conclusion: "failure" }]);
      expect(fake.checkRuns[0]?.title).toBe("❌ 1 of 2 scenarios passed; improved: decode-c1; regressed: prefill-c32; failed: prefill-c32");
    },
  );

  it("passes a round with scenarios only within the repository's gate.maxRegression", async () => {
    const card = makeScenarioRound([
      { name: "decode-c1", speedup: 1.2 },
      { name: "prefill-c32", speedup: 0.95 },
    ]);
    serveRepository(fake, {
      owner: OWNER,
      repo: REPO,
      appId: APP_ID,
      pulls: [PULL],
      config: "gate:\n  minRoundScore: 0.9\n",
      artifacts: { 24: zipScorecard(card) },
    });
    await receive("workflow_run", workflowRunCompleted({ id: 24, headSha: SHA, headBranch: "topic" }));
    expect(fake.checkRuns).toMatchObject([{ conclusion: "success" }]);
    expect(fake.checkRuns[0]?.title).toBe("✅ 2 of 2 scenarios passed; improved: decode-c1; regressed: prefill-c32");
    fake.reset();
    const config = "gate:\n  minRoundScore: 0.9\n  maxRegression: 0.97\n";
    serveRepository(fake, { owner: OWNER, repo: REPO, appId: APP_ID, pulls: [PULL], config, artifacts: { 25: zipScorecard(card) } });
    await receive("workflow_run", workflowRunCompleted({ id: 25, headSha: SHA, headBranch: "topic" }));
    expect(fake.checkRuns).toMatchObject([{ conclusion: "failure" }]);
    expect(fake.checkRuns[0]?.title).toBe("❌ 1 of 2 scenarios passed; improved: decode-c1; regressed: prefill-c32; failed: prefill-c32");
  });

  it("holds each scenario to the repository's bar for it, and fails the check of a card that dropped a declared scenario", async () => {
    const config = [
      "gate:",
      "  minRoundScore: 1.0",
      "  scenarios:",
      "    decode-c1: { minRoundScore: 1.0 }",
      "    chat-rate16: { minRoundScore: 0.98 }",
      "",
    ].join("\n");
    const card = makeScenarioRound([
      { name: "decode-c1", speedup: 1.2 },
      { name: "chat-rate16", speedup: 0.99 },
    ]);
    serveRepository(fake, { owner: OWNER, repo: REPO, appId: APP_ID, pulls: [PULL], config, artifacts: { 26: zipScorecard(card) } });
    await receive("workflow_run", workflowRunCompleted({ id: 26, headSha: SHA, headBranch: "topic" }));
    expect(fake.checkRuns).toMatchObject([{ conclusion: "success" }]);
    expect(fake.checkRuns[0]?.title).toBe("✅ 2 of 2 scenarios passed; improved: decode-c1");
    fake.reset();
    const dropped = { ...card, scenarios: card.scenarios?.slice(0, 1) };
    serveRepository(fake, { owner: OWNER, repo: REPO, appId: APP_ID, pulls: [PULL], config, artifacts: { 27: zipScorecard(dropped) } });
    await receive("workflow_run", workflowRunCompleted({ id: 27, headSha: SHA, headBranch: "topic" }));
    expect(fake.checkRuns).toMatchObject([{ conclusion: "failure" }]);
    expect(fake.checkRuns[0]?.title).toBe("❌ 1 of 2 scenarios passed; improved: decode-c1; missing: chat-rate16");
    expect(fake.checkRuns[0]?.summary).toContain(
      "the card has no scenario chat-rate16, which the repository's app config declares (`gate.scenarios`): add it to the round " +
        "config's scenarios",
    );
  });

  it("re-gates a version-1 card from an older action: converted on read, scored under today's rule", async () => {
    const fresh = makeCard(Array.from({ length: 12 }, (_, index) => ({ speedup: 1.2 + index * 0.01 })));
    serveRepository(fake, {
      owner: OWNER,
      repo: REPO,
      appId: APP_ID,
      pulls: [PULL],
      artifacts: { 8: zipScorecard(JSON.stringify(toVersion1(fresh))) },
    });
    await receive("workflow_run", workflowRunCompleted({ id: 8, headSha: SHA, headBranch: "topic" }));
    expect(fake.checkRuns).toMatchObject([{ conclusion: "success" }]);
    expect(fake.checkRuns[0]?.title).toMatch(/^✅ Round score 1\.2\d×; the interval's low end 1\.\d\d× clears the gate's 1\.00×$/);
    expect(fake.checkRuns[0]?.summary).toContain("converted from a version-1 card");
  });

  it("posts a card from a runner on an older speedgate (schema 1), re-gated, without the sections it does not have", async () => {
    const {
      metrics: _metrics,
      gpuState: _gpuState,
      docsBaseUrl: _docs,
      ...v1
    } = makeTestScorecard({ scores: Array.from({ length: 12 }, () => 1.3) });
    serveRepository(fake, {
      owner: OWNER,
      repo: REPO,
      appId: APP_ID,
      pulls: [PULL],
      artifacts: { 4: zipScorecard(JSON.stringify({ ...v1, schemaVersion: 1 })) },
    });
    await receive("workflow_run", workflowRunCompleted({ id: 4, headSha: SHA, headBranch: "topic" }));
    expect(fake.checkRuns).toMatchObject([{ conclusion: "success" }]);
    expect(fake.checkRuns[0]?.title).toMatch(/^✅ Round score 1\.30×; the interval's low end 1\.\d\d× clears the gate's 1\.00×$/);
    expect(fake.comments[0]?.body).toContain("## ✅ Round score 1.30×");
    expect(fake.comments[0]?.body).not.toContain("Where the speed came from");
  });

  it("posts a schema 2 card with its metrics", async () => {
    const card = makeTestScorecard({ scores: [1.3, 1.3, 1.3] });
    const withMetrics = { ...card, metrics: makeCard([{ speedup: 1.3 }]).metrics };
    serveRepository(fake, { owner: OWNER, repo: REPO, appId: APP_ID, pulls: [PULL], artifacts: { 5: zipScorecard(withMetrics) } });
    await receive("workflow_run", workflowRunCompleted({ id: 5, headSha: SHA, headBranch: "topic" }));
    expect(fake.comments[0]?.body).toContain("<details><summary>Where the speed came from");
    expect(fake.comments[0]?.body).toContain("| Speed | **First token:**");
  });

  it("links the app's own troubleshooting pages, never the ones the artifact names", async () => {
    const forged = {
      ...makeTestScorecard({ scores: [1.3, 1.3, 1.3], failure: seedOomFailure() }),
      docsBaseUrl: "https://attacker.example/phish/docs/troubleshooting/",
    };
    serveRepository(fake, { owner: OWNER, repo: REPO, appId: APP_ID, pulls: [PULL], artifacts: { 17: zipScorecard(forged) } });
    await receive("workflow_run", workflowRunCompleted({ id: 17, headSha: SHA, headBranch: "topic" }));
    const body = fake.comments[0]?.body ?? "";
    expect(body).toContain(`](${DEFAULT_APP_DOCS_URL}`);
    expect(body).not.toContain("attacker.example");
    expect(fake.checkRuns[0]?.summary).not.toContain("attacker.example");
  });

  it("fails the check, saying why, when the artifact is not a valid card", async () => {
    const broken = JSON.stringify({ ...makeTestScorecard(), prompts: "all of them" });
    serveRepository(fake, { owner: OWNER, repo: REPO, appId: APP_ID, pulls: [PULL], artifacts: { 3: zipScorecard(broken) } });
    await receive("workflow_run", workflowRunCompleted({ id: 3, headSha: SHA, headBranch: "topic" }));
    expect(fake.comments).toEqual([]);
    expect(fake.checkRuns).toMatchObject([{ conclusion: "failure", title: "The score card artifact was refused" }]);
    expect(fake.checkRuns[0]?.summary).toContain("prompts");
  });

  it("matches a dispatched run by the SHA in its title when GitHub returned no run id", async () => {
    const repo = serveRepository(fake, {
      owner: OWNER,
      repo: REPO,
      appId: APP_ID,
      pulls: [PULL],
      roles: { maintainer: "admin" },
      groups: ["app", "config", "pulls", "comments", "checks", "permissions", "reactions", "artifacts"],
    });
    // Older GitHub Enterprise versions answer a dispatch with 204 and no run details.
    fake.on("POST", "/repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches", () => ({ status: 204 }));
    await receive("issue_comment", issueCommentCreated({ number: 21, body: "/rescore", login: "maintainer" }));
    expect(fake.checkRuns).toMatchObject([{ status: "queued", externalId: "speedgate:pr=21:run=unknown" }]);
    // A run id of its own: the app handles a run's attempt once, and run 4 was another test's.
    repo.artifacts.set(6, zipScorecard(makeTestScorecard()));
    await receive(
      "workflow_run",
      workflowRunCompleted({
        id: 6,
        event: "workflow_dispatch",
        headSha: "9".repeat(40),
        headBranch: "main",
        title: `speedgate #21 ${SHA}`,
      }),
    );
    expect(fake.comments.filter((comment) => comment.body.startsWith("<!-- speedgate -->"))).toMatchObject([{ issueNumber: 21 }]);
    expect(fake.checkRuns).toMatchObject([{ headSha: SHA, status: "completed", conclusion: "success" }]);
  });

  it("concludes the dispatched commit's check but leaves the comment alone once the pull request has moved on", async () => {
    const repo = serveRepository(fake, { owner: OWNER, repo: REPO, appId: APP_ID, pulls: [PULL], roles: { maintainer: "admin" } });
    await receive("issue_comment", issueCommentCreated({ number: 21, body: "/rescore", login: "maintainer" }));
    const runId = repo.dispatches[0]?.runId ?? 0;
    repo.artifacts.set(runId, zipScorecard(makeTestScorecard()));
    const moved = "2".repeat(40);
    (repo.pulls[0] as FakePull).headSha = moved;
    await receive(
      "workflow_run",
      workflowRunCompleted({
        id: runId,
        event: "workflow_dispatch",
        headSha: "9".repeat(40),
        headBranch: "main",
        title: `speedgate #21 ${SHA}`,
      }),
    );
    // Only the reply naming the SHA the /rescore scored: no card comment.
    expect(fake.comments.map((comment) => comment.body)).toEqual([expect.stringMatching(/^Scoring 1{40} /)]);
    expect(fake.checkRuns).toMatchObject([{ headSha: SHA, status: "completed", conclusion: "success" }]);
  });
});
