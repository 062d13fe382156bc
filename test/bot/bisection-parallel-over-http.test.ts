import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OWNER, REPO, workflowRunCompleted } from "../../harness/fake-github/adjust-payloads.js";
import { FakeGitHub } from "../../harness/fake-github/fake-github-server.js";
import { zipScorecard } from "../../harness/fake-github/make-test-scorecard.js";
import { deliverAndSettle, sendWebhook } from "../../harness/fake-github/send-webhook.js";
import { serveRepository } from "../../harness/fake-github/serve-repository.js";
import { stepRunTitle } from "../../src/github/dispatch-watch-step.js";
import { type BotProcess, startBotProcess } from "../support/fake-github/start-bot-process.js";
import { makeTempDir } from "../support/make-temp-dir.js";
import { mainWithMerges, watchStepCard } from "../support/watch/main-with-merges.js";

/*
 * #41: `watch.parallelSteps` above 1 end to end, the app over HTTP with signed deliveries against the fake GitHub.
 * Each round of the search dispatches that many probes at once (several runners free); their cards come back in
 * the reverse order of the dispatches, one of them twice (GitHub's redelivery), and the app is stopped and started
 * again between two cards of one round. Each step is dispatched once, the round only moves on once all its probes
 * are in, merge 11 of 16 (decode 8% slower) is named after ⌈log_{p+1} 16⌉ rounds of probes and one round of the
 * merge against its parent, and the tracking issue lists every step.
 */

const MERGES = 16;
const GUILTY = 11;
const WATCH = "speedgate-watch.yml";
const decodeLevel = (index: number): number => (index >= GUILTY ? 0.92 : 1);

/** The probes each round dispatches for 16 merges and merge 11 guilty (src/watch/plan-bisection.ts's probeIndices). */
const EXPECTED_ROUNDS: Record<number, string[][]> = {
  2: [["probe-5-1", "probe-11-1"], ["probe-7-1", "probe-9-1"], ["probe-10-1"], ["parent-11-1"]],
  3: [["probe-4-1", "probe-8-1", "probe-12-1"], ["probe-9-1", "probe-10-1", "probe-11-1"], ["parent-11-1"]],
};

describe("a drift of main bisected with several probes at once (`watch.parallelSteps`), over HTTP", () => {
  const fake = new FakeGitHub();
  beforeAll(async () => await fake.start());
  afterAll(async () => await fake.stop());

  it.each([2, 3])(
    "parallelSteps %i: each round's probes dispatched together and once, cards out of order, a redelivery and a restart mid-round",
    { timeout: 420_000 },
    async (parallel) => {
      fake.reset();
      const { commits, main, pulls } = mainWithMerges(MERGES);
      const good = main[0] ?? "";
      const bad = main[MERGES] ?? "";
      const config = ["watch:", `  workflow: ${WATCH}`, "  maxDrift: 0.97", "  maxRepeats: 2", `  parallelSteps: ${parallel}`, ""];
      const appId = 4260 + parallel;
      const repo = serveRepository(fake, {
        owner: OWNER,
        repo: REPO,
        appId,
        config: config.join("\n"),
        commits,
        pulls,
        workflows: [WATCH],
        workflowInputs: ["good", "bad", "base", "head", "step"],
      });
      const env = { SPEEDGATE_DATA_DIR: await makeTempDir("speedgate-parallel-bisection-") };
      let bot: BotProcess = await startBotProcess({ gheHost: fake.host, env, appId });
      const payloads = new Map<string, unknown>();
      const deliverRun = async (runId: number, base: string, head: string, event: string, title: string): Promise<void> => {
        repo.artifacts.set(runId, zipScorecard(watchStepCard(main, base, head, decodeLevel)));
        const payload = workflowRunCompleted({ id: runId, headSha: bad, headBranch: "main", event, title, workflowFile: WATCH });
        payloads.set(title, payload);
        expect(await deliverAndSettle(bot, "workflow_run", payload, randomUUID())).toBe(200);
      };
      const stepsOf = (from: number): string[] =>
        repo.dispatches.slice(from).map((dispatch) => (dispatch.inputs.step ?? "").replace(stepRunTitle(1, ""), ""));
      try {
        await deliverRun(fake.nextId(), good, bad, "schedule", "speedgate-watch");
        const rounds: string[][] = [];
        let seen = 0;
        let restarted = false;
        for (let round = 0; round < 8; round++) {
          const batch = repo.dispatches.slice(seen);
          if (batch.length === 0) break;
          rounds.push(stepsOf(seen).sort());
          seen = repo.dispatches.length;
          // The runners finish in the reverse order of the dispatches.
          for (const [position, dispatch] of [...batch].reverse().entries()) {
            const title = dispatch.inputs.step ?? "";
            await deliverRun(dispatch.runId, dispatch.inputs.base ?? "", dispatch.inputs.head ?? "", "workflow_dispatch", title);
            const last = position === batch.length - 1;
            // Until the round's last card is in, nothing new is dispatched.
            if (!last) expect(repo.dispatches.length, bot.output().slice(-3000)).toBe(seen);
            if (!last && round === 1 && !restarted) {
              // GitHub redelivers the card just read (a new delivery id): a copy, nothing dispatched.
              const copy = randomUUID();
              expect(
                await sendWebhook(bot.webhookUrl, { event: "workflow_run", payload: payloads.get(title), id: copy, secret: bot.secret }),
              ).toBe(200);
              await bot.waitFor(new RegExp(`delivery ${copy}: \\S+ was stored before`));
              // And the app is stopped and started again before the round's other cards come back.
              await bot.stop();
              bot = await startBotProcess({ gheHost: fake.host, env, appId });
              restarted = true;
              expect(repo.dispatches.length).toBe(seen);
            }
          }
        }
        expect(restarted).toBe(true);
        const expected = EXPECTED_ROUNDS[parallel] ?? [];
        expect(rounds).toEqual(expected.map((round) => [...round].sort()));
        // ⌈log_{p+1} 16⌉ rounds of probes, then the first bad merge against its parent.
        expect(rounds.filter((round) => round.some((step) => step.startsWith("probe")))).toHaveLength(
          Math.ceil(Math.log(MERGES) / Math.log(parallel + 1) - 1e-9),
        );
        const sent = stepsOf(0);
        expect(new Set(sent).size).toBe(sent.length);
        expect(fake.calls("POST", "/repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches")).toHaveLength(sent.length);

        const issue = repo.issues[0];
        expect(repo.issues).toHaveLength(1);
        expect(issue?.title).toContain(`merge ${main[GUILTY]?.slice(0, 12)}`);
        expect(issue?.body, bot.output().slice(-3000)).toContain(
          `**Found: #${GUILTY} \`${main[GUILTY]?.slice(0, 12)}\` (merge ${GUILTY} of ${MERGES} in the range).**`,
        );
        for (const step of sent) {
          const [purpose, index] = step.split("-");
          expect(issue?.body).toContain(purpose === "parent" ? `parent of ${index}` : `probe ${index}`);
        }
        expect(fake.comments.filter((comment) => comment.issueNumber === GUILTY)).toHaveLength(1);
        expect(fake.comments.filter((comment) => comment.issueNumber !== GUILTY)).toEqual([]);
        expect(fake.violations).toEqual([]);
      } finally {
        await bot.stop();
      }
    },
  );
});
