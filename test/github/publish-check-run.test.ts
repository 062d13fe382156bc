import { getOctokit } from "@actions/github";
import { beforeEach, describe, expect, it } from "vitest";
import { publishCheckRun } from "../../src/github/publish-check-run.js";
import { serveRepository } from "../../harness/fake-github/serve-repository.js";
import { useFakeGitHub } from "../support/fake-github/use-fake-github.js";

const target = { owner: "o", repo: "r", headSha: "f".repeat(40) };

describe("publishCheckRun", () => {
  const fake = useFakeGitHub();
  const client = () => getOctokit("token", { baseUrl: fake.apiUrl });

  beforeEach(() => {
    serveRepository(fake, { owner: "o", repo: "r", appId: 1, groups: ["checks"] });
  });

  it("queues a check, then concludes that same check", async () => {
    const queued = await publishCheckRun(client(), { ...target, state: { status: "queued" }, title: "waiting", summary: "…" });
    const done = await publishCheckRun(client(), {
      ...target,
      state: { status: "completed", conclusion: "success" },
      title: "✅ Round score 1.20×",
      summary: "card",
    });
    expect(done).toEqual({ id: queued.id, action: "updated" });
    expect(fake.checkRuns).toMatchObject([{ status: "completed", conclusion: "success", title: "✅ Round score 1.20×", summary: "card" }]);
  });

  it("creates a new check when the last one is already concluded", async () => {
    await publishCheckRun(client(), { ...target, state: { status: "completed", conclusion: "failure" }, title: "a", summary: "a" });
    await publishCheckRun(client(), { ...target, state: { status: "completed", conclusion: "success" }, title: "b", summary: "b" });
    expect(fake.checkRuns.map((check) => check.conclusion)).toEqual(["failure", "success"]);
  });

  it("publishes a card's verdict once when the same work runs again, and a different verdict anew", async () => {
    const verdict = {
      ...target,
      state: { status: "completed" as const, conclusion: "success" as const },
      title: "✅ Round score 1.20×",
      summary: "card",
      unlessSame: true,
    };
    const first = await publishCheckRun(client(), verdict);
    expect(await publishCheckRun(client(), verdict)).toEqual({ id: first.id, action: "kept" });
    expect(fake.checkRuns).toHaveLength(1);
    await publishCheckRun(client(), { ...verdict, state: { status: "completed", conclusion: "failure" }, title: "❌ Round score 0.90×" });
    expect(fake.checkRuns.map((check) => check.conclusion)).toEqual(["success", "failure"]);
  });

  it("re-queues an open check in place instead of stacking queued checks", async () => {
    await publishCheckRun(client(), {
      ...target,
      state: { status: "queued" },
      title: "waiting",
      summary: "",
      externalId: "speedgate:pr=1:run=5",
    });
    await publishCheckRun(client(), {
      ...target,
      state: { status: "queued" },
      title: "rescored",
      summary: "",
      externalId: "speedgate:pr=1:run=6",
    });
    expect(fake.checkRuns.map((check) => [check.title, check.externalId])).toEqual([["rescored", "speedgate:pr=1:run=6"]]);
  });

  it("concludes the check carrying the same external id when several are open", async () => {
    for (const [id, run] of [
      [1, 5],
      [2, 6],
    ] as const) {
      fake.checkRuns.push({
        id,
        name: "speedgate",
        headSha: target.headSha,
        status: "queued",
        conclusion: null,
        title: null,
        summary: null,
        externalId: `speedgate:pr=1:run=${run}`,
        detailsUrl: null,
        appId: 1,
      });
    }
    await publishCheckRun(client(), {
      ...target,
      state: { status: "completed", conclusion: "failure" },
      title: "run 5 done",
      summary: "",
      externalId: "speedgate:pr=1:run=5",
    });
    expect(fake.checkRuns.map((check) => [check.externalId, check.status])).toEqual([
      ["speedgate:pr=1:run=5", "completed"],
      ["speedgate:pr=1:run=6", "queued"],
    ]);
  });

  it("leaves a same-name check of another app (a workflow job called speedgate) alone", async () => {
    fake.checkRuns.push({
      id: 7,
      name: "speedgate",
      headSha: target.headSha,
      status: "in_progress",
      conclusion: null,
      title: null,
      summary: null,
      externalId: null,
      detailsUrl: null,
      appId: 15368,
    });
    await publishCheckRun(client(), {
      ...target,
      appId: 1,
      state: { status: "completed", conclusion: "success" },
      title: "ok",
      summary: "",
    });
    expect(fake.checkRuns.map((check) => [check.appId, check.status])).toEqual([
      [15368, "in_progress"],
      [1, "completed"],
    ]);
    expect(fake.calls("GET", "/repos/{owner}/{repo}/commits/{ref}/check-runs")[0]?.path).toBe(
      `/repos/o/r/commits/${target.headSha}/check-runs`,
    );
  });

  it("cuts a summary over 65,535 characters", async () => {
    await publishCheckRun(client(), {
      ...target,
      state: { status: "completed", conclusion: "failure" },
      title: "t",
      summary: "y".repeat(80_000),
    });
    expect(fake.checkRuns[0]?.summary?.length).toBeLessThanOrEqual(65_535);
  });
});
