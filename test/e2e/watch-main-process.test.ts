import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { OWNER, REPO, workflowRunCompleted } from "../../harness/fake-github/adjust-payloads.js";
import { zipScorecard } from "../../harness/fake-github/make-test-scorecard.js";
import { deliverAndSettle } from "../../harness/fake-github/send-webhook.js";
import { type FakeCommit, type FakePull, serveRepository } from "../../harness/fake-github/serve-repository.js";
import { type MainHistory, buildMainHistory } from "../../harness/git/build-main-history.js";
import { watchedEngineFiles, writeWatchRound } from "../../harness/sim-engine/watched-engine.js";
import { runStep, stageAction } from "../action/support/action-step.js";
import { useBotProcess } from "../support/fake-github/use-bot-process.js";
import { getFreePort } from "../support/get-free-port.js";
import { makeTempDir } from "../support/make-temp-dir.js";

const run = promisify(execFile);

/*
 * #41's Done-when through the whole chain: a real git repository of the reference engine whose main has
 * 16 merges, merge 11 making decode slower (the engine reads its speed from engine/profile.json, which
 * the merge changes); the bundled action's mode: watch on the process runtime plays every job of the
 * watch workflow (the scheduled drift round, then each step the app dispatches, its base and head as the
 * dispatch's inputs); the running app reads each card over HTTP with signed deliveries against the fake
 * GitHub, bisects, comments on pull request #11 and keeps the tracking issue.
 *
 * The step is 2.5× (decode at 0.4), not the issue's 8%: on this machine's two shared cores a three-run round
 * of the reference engine spreads by about ±20% (more beside CPU-bound work: with a 2× step, one run beside the
 * unit suite raised no alarm, cause not captured), so an 8% step is not told from noise by one round (the
 * 8% case is proven on the plan with rounds of a runner's 1% spread, test/watch/plan-bisection.test.ts).
 */

const MERGES = 16;
const GUILTY = 11;
const CONFIG = ["watch:", "  workflow: speedgate-watch.yml", "  maxDrift: 0.9", "  maxRepeats: 1", ""].join("\n");

/** The repository's history as GitHub's API serves it: every commit with its parents, message and date. */
async function readFakeCommits(dir: string): Promise<FakeCommit[]> {
  const { stdout } = await run("git", ["-C", dir, "log", "--all", "--reverse", "--topo-order", "--format=%H%x1f%P%x1f%cI%x1f%B%x1e"]);
  return stdout
    .split("\x1e")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "")
    .map((entry) => {
      const [sha = "", parents = "", date = "", message = ""] = entry.split("\x1f");
      return { sha, parents: parents.split(" ").filter((parent) => parent !== ""), date, message };
    });
}

describe("#41 end to end: a drift of main found, bisected by the app and reported (action on the process runtime, app, GitHub)", () => {
  const { fake, bot } = useBotProcess();
  let history: MainHistory;
  let configPath = "";

  beforeAll(async () => {
    await stageAction();
    const merges = Array.from({ length: MERGES }, (_, index) => {
      const number = index + 1;
      return number === GUILTY
        ? { title: "scheduler: a slower decode path", files: watchedEngineFiles({ decode: 0.4, chat: 1 }) }
        : { title: `docs: note ${number}`, files: { [`docs/note-${number}.md`]: `note ${number}\n` } };
    });
    history = await buildMainHistory(await makeTempDir("speedgate-e2e-watch-repo-"), {
      initial: watchedEngineFiles({ decode: 1, chat: 1 }),
      merges,
      tag: "v0",
    });
    configPath = await writeWatchRound(await makeTempDir("speedgate-e2e-watch-config-"), {
      port: await getFreePort(),
      watch: { maxDrift: 0.9, since: { tag: "v0" }, maxRepeats: 1 },
    });
  });

  it(
    "the scheduled drift round flags decode, the bisection names merge 11 within ⌈log2 16⌉ + 2 rounds, comments and lists every step",
    { timeout: 600_000 },
    async () => {
      const app = bot();
      const pulls: FakePull[] = history.merges.map((merge) => ({
        number: merge.number,
        headSha: merge.head,
        headRepo: `${OWNER}/${REPO}`,
        headBranch: merge.branch,
        author: "dev",
        state: "closed",
        mergeCommitSha: merge.sha,
      }));
      const repo = serveRepository(fake, {
        owner: OWNER,
        repo: REPO,
        appId: app.appId,
        config: CONFIG,
        commits: await readFakeCommits(history.repo.dir),
        pulls,
        workflows: ["speedgate-watch.yml"],
        workflowInputs: ["good", "bad", "base", "head", "step"],
      });
      const checkout = join(await makeTempDir("speedgate-e2e-watch-checkout-"), "repo");
      await run("git", ["clone", "--quiet", "--branch", "main", `file://${history.repo.dir}`, checkout]);
      const bad = history.merges[MERGES - 1]?.sha ?? "";

      /** One job of the watch workflow: the bundled action's mode: watch, its card uploaded, the run's completion delivered. */
      const playJob = async (runId: number, event: string, inputs: Record<string, string>): Promise<void> => {
        const workDir = await makeTempDir("speedgate-e2e-watch-job-");
        const out = join(workDir, "out");
        const step = await runStep({
          entry: "index",
          workDir,
          cwd: checkout,
          event: { name: event, payload: {} },
          inputs: {
            mode: "watch",
            config: configPath,
            "out-dir": out,
            "base-sha": inputs.base ?? "",
            "head-sha": inputs.head ?? "",
            // A step never touches the nightly state: its own file, thrown away with the job.
            ...(inputs.step ? { "state-file": `.speedgate/step-${runId}.json` } : {}),
          },
        });
        expect(step.exitCode, `${step.stdout}\n${step.stderr}`).toBe(0);
        repo.artifacts.set(runId, zipScorecard(await readFile(join(out, "scorecard.json"), "utf8")));
        const payload = workflowRunCompleted({
          id: runId,
          headSha: bad,
          headBranch: "main",
          event,
          title: inputs.step || "speedgate-watch",
          workflowFile: "speedgate-watch.yml",
        });
        expect(await deliverAndSettle(app, "workflow_run", payload, randomUUID())).toBe(200);
      };

      await playJob(fake.nextId(), "schedule", {});
      const answered = new Set<number>();
      for (let turn = 0; turn < 10; turn++) {
        const next = repo.dispatches.find((dispatch) => !answered.has(dispatch.runId));
        if (!next) break;
        answered.add(next.runId);
        expect(next.inputs.base, "every probe's base is the good commit, the parent round's the merge's parent").toMatch(/^[0-9a-f]{40}$/);
        await playJob(next.runId, "workflow_dispatch", next.inputs);
      }

      const steps = repo.dispatches.map((dispatch) => dispatch.inputs.step?.replace(/^speedgate bisection \d+ /, ""));
      expect(new Set(steps).size).toBe(steps.length);
      expect(steps.length).toBeLessThanOrEqual(Math.ceil(Math.log2(MERGES)) + 2);
      const guilty = history.merges[GUILTY - 1]?.sha ?? "";
      expect(repo.issues, app.output().slice(-6000)).toHaveLength(1);
      const issue = repo.issues[0];
      expect(issue?.body, app.output().slice(-4000)).toContain(
        `**Found: #${GUILTY} \`${guilty.slice(0, 12)}\` (merge ${GUILTY} of ${MERGES} in the range).**`,
      );
      for (const step of steps) {
        const [purpose, index] = (step ?? "").split("-");
        expect(issue?.body).toContain(purpose === "probe" ? `probe ${index}` : `parent of ${index}`);
      }
      const comments = fake.comments.filter((comment) => comment.issueNumber === GUILTY);
      expect(comments).toHaveLength(1);
      expect(comments[0]?.body).toMatch(/Merged .+: decode \d+\.\d% slower/);
      expect(comments[0]?.body).toContain("The merge's card against its parent");
      expect(fake.violations).toEqual([]);
    },
  );
});
