import { getOctokit } from "@actions/github";
import pg from "pg";
import { beforeEach, expect, it } from "vitest";
import { dispatchScoringWorkflow } from "../../src/github/dispatch-scoring-workflow.js";
import { isDefiniteRefusal } from "../../src/github/is-definite-refusal.js";
import type { Database } from "../../src/store/database.js";
import { runSideEffectOnce } from "../../src/store/run-side-effect-once.js";
import { describeEachBackend, useTestDatabase } from "../support/database/database-backends.js";
import { type FakeRepository, serveRepository } from "../../harness/fake-github/serve-repository.js";
import { useFakeGitHub } from "../support/fake-github/use-fake-github.js";

const SHA = "c0ffee".repeat(6) + "c0ff";

describeEachBackend("a dispatch recorded before it is sent", (backend) => {
  const fake = useFakeGitHub();
  const test = useTestDatabase(backend);
  let database: Database;
  let repository: FakeRepository;
  let key = 0;

  // No Octokit retries: a guarded dispatch is sent once per attempt, or the record means nothing.
  const client = () => getOctokit("ghs_installation", { baseUrl: fake.apiUrl, request: { retries: 0 } });
  const dispatch = () =>
    dispatchScoringWorkflow(client(), { owner: "o", repo: "r", workflow: "speedgate.yml", ref: "main", pullRequest: 7, headSha: SHA });
  const state = async (effectKey: string) =>
    (
      await database.pool.query<{ state: string; sends: number }>("SELECT state, sends FROM speedgate.side_effects WHERE effect_key = $1", [
        effectKey,
      ])
    ).rows[0];

  beforeEach(() => {
    database = test.database();
    repository = serveRepository(fake, { owner: "o", repo: "r", appId: 1, groups: ["dispatch"] });
    key++;
  });

  it("sends once, and a second attempt gets the first one's result without sending", async () => {
    const effectKey = `dispatch:comment:${key}`;
    const first = await runSideEffectOnce(database.pool, { key: effectKey, kind: "dispatch", send: dispatch, isDefiniteRefusal });
    const second = await runSideEffectOnce(database.pool, { key: effectKey, kind: "dispatch", send: dispatch, isDefiniteRefusal });
    expect(repository.dispatches).toHaveLength(1);
    const runId = repository.dispatches[0]?.runId;
    expect(first).toEqual({ state: "done", sentNow: true, result: { runId, runUrl: `https://github.com/o/r/actions/runs/${runId}` } });
    expect(second).toEqual({ ...first, sentNow: false });
    expect(await state(effectKey)).toEqual({ state: "done", sends: 1 });
    expect(fake.violations).toEqual([]);
  });

  it("never sends again after a crash between sending and recording: the retry says it is uncertain", async () => {
    const effectKey = `dispatch:comment:${key}`;
    // The process dies right after GitHub accepted the dispatch: its connections go, the record is never written.
    const dying = new pg.Pool({ ...database.connection, max: 1 });
    dying.on("error", () => undefined);
    await expect(
      runSideEffectOnce(dying, {
        key: effectKey,
        kind: "dispatch",
        send: async () => {
          const result = await dispatch();
          await dying.end();
          return result;
        },
        isDefiniteRefusal,
      }),
    ).rejects.toThrow();
    expect(repository.dispatches).toHaveLength(1);

    // The job is retried by another process.
    const retried = await runSideEffectOnce(database.pool, { key: effectKey, kind: "dispatch", send: dispatch, isDefiniteRefusal });
    expect(retried).toEqual({ state: "uncertain", reason: expect.stringContaining("never recorded the answer") as string });
    expect(repository.dispatches).toHaveLength(1);
    expect(await state(effectKey)).toEqual({ state: "uncertain", sends: 1 });
  });

  it("sends again after GitHub refused it (nothing was dispatched)", async () => {
    const effectKey = `dispatch:comment:${key}`;
    let refuse = true;
    fake.on("POST", "/repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches", () => {
      if (refuse) return { status: 422, body: { message: "Workflow does not have 'workflow_dispatch' trigger" } };
      repository.dispatches.push({ workflow: "speedgate.yml", ref: "main", inputs: {}, runId: 77 });
      return { status: 200, body: { workflow_run_id: 77, run_url: "", html_url: "https://github.com/o/r/actions/runs/77" } };
    });
    await expect(runSideEffectOnce(database.pool, { key: effectKey, kind: "dispatch", send: dispatch, isDefiniteRefusal })).rejects.toThrow(
      /workflow_dispatch/,
    );
    expect(await state(effectKey)).toEqual({ state: "failed", sends: 1 });
    refuse = false;
    const retried = await runSideEffectOnce(database.pool, { key: effectKey, kind: "dispatch", send: dispatch, isDefiniteRefusal });
    expect(retried).toMatchObject({ state: "done", sentNow: true, result: { runId: 77 } });
    expect(repository.dispatches).toHaveLength(1);
    expect(await state(effectKey)).toEqual({ state: "done", sends: 2 });
  });

  it("does not send again after an answer that may hide a dispatch (a 502)", async () => {
    const effectKey = `dispatch:comment:${key}`;
    fake.on("POST", "/repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches", () => {
      repository.dispatches.push({ workflow: "speedgate.yml", ref: "main", inputs: {}, runId: 0 });
      return { status: 502, body: { message: "Server Error" } };
    });
    const first = await runSideEffectOnce(database.pool, { key: effectKey, kind: "dispatch", send: dispatch, isDefiniteRefusal });
    expect(first).toEqual({ state: "uncertain", reason: expect.stringContaining("without a definite answer") as string });
    const second = await runSideEffectOnce(database.pool, { key: effectKey, kind: "dispatch", send: dispatch, isDefiniteRefusal });
    expect(second.state).toBe("uncertain");
    expect(repository.dispatches).toHaveLength(1);
  });
});
