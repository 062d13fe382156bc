import { randomUUID } from "node:crypto";
import type { Probot } from "probot";
import { beforeAll, describe, expect, it } from "vitest";
import type { Scorecard } from "../../src/scorecard/scorecard-schema.js";
import { OWNER, REPO, workflowRunCompleted } from "../../harness/fake-github/adjust-payloads.js";
import { createTestProbot } from "../../harness/fake-github/create-test-probot.js";
import { makeTestScorecard, zipScorecard } from "../../harness/fake-github/make-test-scorecard.js";
import { serveRepository } from "../../harness/fake-github/serve-repository.js";
import { useFakeGitHub } from "../support/fake-github/use-fake-github.js";

const SHA = "e".repeat(40);
const APP_ID = 77;

/** The longest log tail the schema admits (2,000 lines of 4,000 characters: 8 MB) and 5,000 prompts: over 10 MB. */
function hugeCard(): Scorecard {
  const card = makeTestScorecard({ scores: Array.from({ length: 5_000 }, (_, index) => 0.5 + (index % 100) / 100) });
  const line = (index: number): string => `${String(index).padStart(6, "0")} ${"x".repeat(3_993)}`;
  return {
    ...card,
    // Long per-prompt reasons bring the card past 10 MB while every field stays within the schema.
    prompts: card.prompts.map((prompt) => ({ ...prompt, reason: `note ${"r".repeat(200)}` })),
    failure: {
      engine: "candidate",
      stage: "benchmark",
      kind: "cuda_oom",
      label: "out of memory",
      summary: "the candidate ran out of GPU memory",
      hint: "lower the batch size",
      exitCode: 137,
      signal: null,
      logTail: Array.from({ length: 2_000 }, (_, index) => line(index)),
    },
  };
}

describe("a card at GitHub's length limits", () => {
  const fake = useFakeGitHub();
  let probot: Probot;

  beforeAll(async () => {
    probot = await createTestProbot({ fakeUrl: fake.url, appId: APP_ID });
  });

  it("posts a 10 MB card with 5,000 prompts: comment within 65,536 characters, check summary within 65,535", async () => {
    const card = hugeCard();
    expect(JSON.stringify(card).length).toBeGreaterThan(10_000_000);
    const zip = zipScorecard(card);
    serveRepository(fake, {
      owner: OWNER,
      repo: REPO,
      appId: APP_ID,
      pulls: [{ number: 3, headSha: SHA, headRepo: `${OWNER}/${REPO}`, headBranch: "big", author: "a" }],
      artifacts: { 901: zip },
    });
    const payload = workflowRunCompleted({ id: 901, headSha: SHA, headBranch: "big" });
    await probot.receive({ id: randomUUID(), name: "workflow_run", payload } as Parameters<Probot["receive"]>[0]);
    expect(fake.comments).toHaveLength(1);
    const body = fake.comments[0]?.body ?? "";
    expect(body.length).toBeLessThanOrEqual(65_536);
    expect(body).toContain("more prompts are not shown here");
    expect(fake.checkRuns).toHaveLength(1);
    expect(fake.checkRuns[0]?.summary?.length).toBeLessThanOrEqual(65_535);
    expect(fake.checkRuns[0]?.conclusion).toBe("failure");
  });
});
