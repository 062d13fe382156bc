import { execFile } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { readScorecard } from "../../src/scorecard/read-scorecard.js";
import { parseWatchState } from "../../src/watch/watch-state.js";
import { type MainHistory, buildMainHistory } from "../../harness/git/build-main-history.js";
import { watchedEngineFiles, writeWatchRound } from "../../harness/sim-engine/watched-engine.js";
import { getFreePort } from "../support/get-free-port.js";
import { makeTempDir } from "../support/make-temp-dir.js";
import { runStep, stageAction } from "./support/action-step.js";

const run = promisify(execFile);

/*
 * The bundled action's mode: watch, as a scheduled workflow runs it: a full clone of main (actions/checkout
 * with fetch-depth: 0), the watch's state file inside it (restored by actions/cache), and each round a
 * base/head round of two main commits on the reference engine through the process runtime. Merge 3 of 4
 * makes decode 2.5× slower: a step large enough for a three-run round on two shared cores (the 8% case
 * is proven on the bisection plan, test/watch/plan-bisection.test.ts).
 */
describe("the action's mode: watch (bundled action, runtime: process)", () => {
  let history: MainHistory;
  let configPath = "";

  beforeAll(async () => {
    await stageAction();
    const merges = [1, 2, 3, 4].map((number) =>
      number === 3
        ? { title: "scheduler: a slower decode path", files: watchedEngineFiles({ decode: 0.4, chat: 1 }) }
        : { title: `docs: note ${number}`, files: { [`docs/note-${number}.md`]: `note ${number}\n` } },
    );
    history = await buildMainHistory(await makeTempDir("speedgate-action-watch-repo-"), {
      initial: watchedEngineFiles({ decode: 1, chat: 1 }),
      merges,
      tag: "v0",
    });
    configPath = await writeWatchRound(await makeTempDir("speedgate-action-watch-config-"), {
      port: await getFreePort(),
      watch: { maxDrift: 0.9, since: { tag: "v0" }, maxRepeats: 1 },
    });
  });

  async function fullCheckout(): Promise<string> {
    const dir = join(await makeTempDir("speedgate-action-watch-checkout-"), "repo");
    await run("git", ["clone", "--quiet", "--branch", "main", `file://${history.repo.dir}`, dir]);
    return dir;
  }

  async function watchStep(checkout: string, inputs: Record<string, string> = {}) {
    const workDir = await makeTempDir("speedgate-action-watch-job-");
    const out = join(workDir, "out");
    const step = await runStep({
      entry: "index",
      workDir,
      cwd: checkout,
      event: { name: "schedule", payload: { schedule: "17 3 * * *" } },
      inputs: { mode: "watch", config: configPath, "out-dir": out, ...inputs },
    });
    return { step, out };
  }

  it(
    "flags the drift against watch.since, writes the card, watch.json and the state file, and is quiet on the next run",
    { timeout: 240_000 },
    async () => {
      const checkout = await fullCheckout();
      const head = history.merges[3]?.sha ?? "";
      const { step, out } = await watchStep(checkout, { "fail-on-drift": "true" });
      // fail-on-drift: main drifted, so the step fails, after writing everything below.
      expect(step.exitCode, `${step.stdout}\n${step.stderr}`).toBe(1);
      expect(step.stdout).toContain("main drifted beyond watch.maxDrift 0.9: decode");
      expect(step.outputs).toMatchObject({ drifted: "true", "good-sha": history.good, "next-good-sha": head });
      const card = await readScorecard(step.outputs["scorecard-json"] ?? "");
      // The drift round is a base/head round of the two main commits: what the app files under main's series.
      expect(card.commits).toMatchObject({ base: history.good, head });
      expect(card.source?.headSha).toBe(head);
      const decode = card.scenarios?.find((scenario) => scenario.name === "decode")?.card.roundScore ?? 1;
      expect(decode).toBeLessThan(0.9);
      const watch = JSON.parse(await readFile(join(out, "watch.json"), "utf8")) as { alarm: boolean; goodFrom: string };
      expect(watch).toMatchObject({ alarm: true, goodFrom: "since" });
      expect(step.summary).toContain("ALARM: main drifted (decode)");
      // The state file where `speedgate watch` keeps it, inside the clone: actions/cache saves it from there.
      const statePath = join(checkout, ".speedgate", "watch-state.json");
      expect(step.outputs["state-file"]).toBe(statePath);
      const state = parseWatchState(await readFile(statePath, "utf8"), statePath);
      expect(state.good).toBe(head);
      expect(state.reported).toHaveLength(1);

      // The next night, with the restored state: main has not moved from the good commit, nothing runs, the step passes.
      const second = await watchStep(checkout, { "fail-on-drift": "true" });
      expect(second.step.exitCode, second.step.stdout).toBe(0);
      expect(second.step.outputs).toMatchObject({ drifted: "false", "good-sha": head, "scorecard-json": "" });
      expect(second.step.stdout).toContain("nothing merged since the good commit: no round was run");
    },
  );

  it("refuses a head-sha outside main's history and a corrupt state file, naming the input, before any engine starts", async () => {
    const checkout = await fullCheckout();
    // A pull request's own commit: merged into main, but main was never at it.
    const branchCommit = history.merges[1]?.head ?? "";
    await run("git", ["-C", checkout, "fetch", "--quiet", "origin", `${branchCommit}:refs/heads/pr-2-copy`]);
    const outside = await watchStep(checkout, { "head-sha": branchCommit });
    expect(outside.step.exitCode).toBe(1);
    expect(outside.step.stdout).toContain(
      `input "head-sha": ${branchCommit.slice(0, 12)} is not in the first-parent history of the checked-out branch`,
    );
    expect(outside.step.state).toEqual({});

    await mkdir(join(checkout, ".speedgate"), { recursive: true });
    await writeFile(join(checkout, ".speedgate", "watch-state.json"), '{"version": 1, "good": "not a sha"}');
    const corrupt = await watchStep(checkout);
    expect(corrupt.step.exitCode).toBe(1);
    expect(corrupt.step.stdout).toContain('input "state-file":');
    expect(corrupt.step.stdout).toContain("delete it to start the watch again from watch.since");
    expect(corrupt.step.state).toEqual({});
  });
});
