import { randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import {
  OWNER,
  REPO,
  checkRunRerequested,
  issueCommentCreated,
  pullRequestEvent,
  workflowRunCompleted,
} from "../../harness/fake-github/adjust-payloads.js";
import { makeTestScorecard, zipScorecard } from "../../harness/fake-github/make-test-scorecard.js";
import { deliverAndSettle } from "../../harness/fake-github/send-webhook.js";
import { type FakePull, serveRepository } from "../../harness/fake-github/serve-repository.js";
import type { BotProcess } from "../support/fake-github/start-bot-process.js";
import { useBotProcess } from "../support/fake-github/use-bot-process.js";

/*
 * Issue #12, points 3, 4, 8 and 11, and issue #15 point 8: who can start a GPU run, of which commit,
 * how often, and what is said when it cannot start, performed against `npm run bot` over HTTP.
 */

const SHA = "a1".repeat(20);
const LATER = "b2".repeat(20);
const ROLES = { maintainer: "maintain", writer: "write", outsider: "read", stranger: "read" };
const minutesAgo = (minutes: number): string => new Date(Date.now() - minutes * 60_000).toISOString();

let nextPull = 300;
/** Each test its own pull request: the app's refusal window and head records are per pull request. */
function newPull(extra: Partial<FakePull> = {}): FakePull {
  nextPull++;
  return {
    number: nextPull,
    headSha: SHA,
    headRepo: `${OWNER}/${REPO}`,
    headBranch: `topic-${nextPull}`,
    author: "outsider",
    pushedAt: minutesAgo(30),
    ...extra,
  };
}

describe("what starts a GPU run, and what is said when nothing does (`npm run bot`)", () => {
  const { fake, bot: running } = useBotProcess();
  let bot: BotProcess;
  beforeEach(() => {
    bot = running();
  });
  const deliver = async (event: string, payload: unknown, id: string = randomUUID()): Promise<number> =>
    await deliverAndSettle(bot, event, payload, id);
  const comment = (pull: FakePull, body: string, login = "maintainer", extra: { createdAt?: string; commentId?: number } = {}) =>
    issueCommentCreated({ number: pull.number, body, login, ...extra });

  describe("point 4: the approval is bound to what the approver saw", () => {
    it("refuses /rescore when the head was pushed after the comment, and says how to approve it", async () => {
      const pull = newPull({ pushedAt: minutesAgo(1) });
      const repo = serveRepository(fake, { owner: OWNER, repo: REPO, appId: bot.appId, pulls: [pull], roles: ROLES });
      // The maintainer wrote the comment two minutes ago; the author pushed a minute ago.
      expect(await deliver("issue_comment", comment(pull, "/rescore", "maintainer", { createdAt: minutesAgo(2) }))).toBe(200);
      expect(repo.dispatches).toEqual([]);
      expect(fake.checkRuns).toEqual([]);
      expect(fake.comments).toHaveLength(1);
      expect(fake.comments[0]?.body).toContain(`the head moved to ${SHA.slice(0, 12)}`);
      expect(fake.comments[0]?.body).toContain(`/rescore ${SHA.slice(0, 12)}`);
    });

    it(
      "issue #24 point 4: scores the head at comment time, B pushed 20 s before a /rescore written for A, and says so; `/rescore <A>` " +
        "is the exact approval",
      async () => {
        const reviewed = SHA;
        const pushed = LATER;
        const now = Date.now();
        const pull = newPull({ headSha: pushed, pushedAt: new Date(now - 20_000).toISOString() });
        const repo = serveRepository(fake, { owner: OWNER, repo: REPO, appId: bot.appId, pulls: [pull], roles: ROLES });
        // The maintainer reviewed A and writes `/rescore`; the author pushed B 20 s before: B is what the approval binds.
        expect(await deliver("issue_comment", comment(pull, "/rescore", "maintainer", { createdAt: new Date(now).toISOString() }))).toBe(
          200,
        );
        expect(repo.dispatches).toMatchObject([{ inputs: { sha: pushed } }]);
        expect(fake.comments[0]?.body).toMatch(
          new RegExp(
            `^Scoring ${pushed} \\(the head when you commented: it became the head 20 s before your comment; if you reviewed an ` +
              `earlier commit, that is not what runs: \`/rescore <sha>\` approves exactly the commit it names\\)`,
          ),
        );
        // Naming the reviewed commit is exact: B is not run for it.
        expect(await deliver("issue_comment", comment(pull, `/rescore ${reviewed.slice(0, 7)}`, "maintainer"))).toBe(200);
        expect(repo.dispatches).toHaveLength(1);
        expect(fake.comments[1]?.body).toContain(
          `\`/rescore ${reviewed.slice(0, 7)}\` names a commit that is not the head of this pull request (the head is ` +
            `${pushed.slice(0, 12)}); nothing was started`,
        );
      },
    );

    it("scores the commit a `/rescore <sha>` names, and replies with the full SHA", async () => {
      const pull = newPull({ pushedAt: minutesAgo(1) });
      const repo = serveRepository(fake, { owner: OWNER, repo: REPO, appId: bot.appId, pulls: [pull], roles: ROLES });
      expect(
        await deliver("issue_comment", comment(pull, `/rescore ${SHA.slice(0, 10)}`, "maintainer", { createdAt: minutesAgo(2) })),
      ).toBe(200);
      expect(repo.dispatches).toMatchObject([{ inputs: { pr: String(pull.number), sha: SHA } }]);
      expect(fake.comments.map((reply) => reply.body)).toEqual([
        expect.stringMatching(new RegExp(`^Scoring ${SHA} \\(the commit you named\\)`)),
      ]);
    });

    it("refuses a `/rescore <sha>` that is not the head", async () => {
      const pull = newPull({ headSha: LATER });
      const repo = serveRepository(fake, { owner: OWNER, repo: REPO, appId: bot.appId, pulls: [pull], roles: ROLES });
      expect(await deliver("issue_comment", comment(pull, `/rescore ${SHA.slice(0, 12)}`))).toBe(200);
      expect(repo.dispatches).toEqual([]);
      expect(fake.comments[0]?.body).toContain(
        `names a commit that is not the head of this pull request (the head is ${LATER.slice(0, 12)})`,
      );
    });

    it("takes the head's time from the pull_request delivery when the activity API has no record (a deleted fork)", async () => {
      const pull = newPull({ headRepo: "gone/Hello-World" });
      const repo = serveRepository(fake, { owner: OWNER, repo: REPO, appId: bot.appId, pulls: [pull], roles: ROLES });
      fake.on("GET", "/repos/{owner}/{repo}/activity", () => ({ status: 404, body: { message: "Not Found" } }));
      // No record at all: refused, asking for the SHA.
      expect(await deliver("issue_comment", comment(pull, "/rescore"))).toBe(200);
      expect(fake.comments[0]?.body).toContain("GitHub has no record the app can read");
      // The synchronize delivery recorded when the head came; a comment after it is bound to that head.
      expect(
        await deliver(
          "pull_request",
          pullRequestEvent("synchronize", { number: pull.number, headSha: SHA, author: "outsider", updatedAt: minutesAgo(5) }),
        ),
      ).toBe(200);
      expect(await deliver("issue_comment", comment(pull, "/rescore"))).toBe(200);
      expect(repo.dispatches).toMatchObject([{ inputs: { sha: SHA } }]);
    });

    it("re-runs a check only while its commit is still the head", async () => {
      const pull = newPull({ headSha: LATER });
      const repo = serveRepository(fake, { owner: OWNER, repo: REPO, appId: bot.appId, pulls: [pull], roles: ROLES });
      expect(await deliver("check_run", checkRunRerequested({ headSha: SHA, login: "maintainer", pullNumber: pull.number }))).toBe(200);
      // The check of SHA is not the head's any more: pressing its Re-run approves SHA, not what came after.
      expect(repo.dispatches).toEqual([]);
      expect(fake.comments[0]?.body).toContain(
        `The speedgate check of ${SHA.slice(0, 12)} was not re-run: the head has moved on to ${LATER.slice(0, 12)}`,
      );
    });

    it("with trigger auto, judges a push by the pusher, not by the pull request's author", async () => {
      const writersPull = newPull({ author: "writer" });
      const repo = serveRepository(fake, {
        owner: OWNER,
        repo: REPO,
        appId: bot.appId,
        pulls: [writersPull],
        roles: ROLES,
        config: "trigger: auto\n",
      });
      // An outsider pushed to a writer's pull request: not started.
      const pushedByOutsider = pullRequestEvent("synchronize", {
        number: writersPull.number,
        headSha: SHA,
        author: "writer",
        sender: "outsider",
      });
      expect(await deliver("pull_request", pushedByOutsider)).toBe(200);
      expect(repo.dispatches).toEqual([]);
      expect(fake.checkRuns).toMatchObject([{ status: "completed", conclusion: "action_required" }]);
      // A writer pushed to an outsider's pull request: started, for that exact head.
      const outsidersPull = newPull({ headSha: LATER });
      repo.pulls.push(outsidersPull);
      const pushedByWriter = pullRequestEvent("synchronize", {
        number: outsidersPull.number,
        headSha: LATER,
        author: "outsider",
        sender: "writer",
      });
      expect(await deliver("pull_request", pushedByWriter)).toBe(200);
      expect(repo.dispatches).toMatchObject([{ inputs: { pr: String(outsidersPull.number), sha: LATER } }]);
    });
  });

  describe("point 8: /rescore is not an amplifier", () => {
    it("answers five refused comments with one reply and four reactions", async () => {
      const pull = newPull();
      const repo = serveRepository(fake, { owner: OWNER, repo: REPO, appId: bot.appId, pulls: [pull], roles: ROLES });
      for (let index = 0; index < 5; index++) expect(await deliver("issue_comment", comment(pull, "/rescore", "stranger"))).toBe(200);
      expect(repo.dispatches).toEqual([]);
      expect(fake.comments).toHaveLength(1);
      expect(fake.comments[0]?.body).toContain("only people with write permission or higher");
      expect(repo.reactions.map((reaction) => reaction.content)).toEqual(["confused", "confused", "confused", "confused"]);
    });

    it("says nothing about an invalid config to someone without permission, and tells a maintainer what is wrong", async () => {
      const pull = newPull();
      serveRepository(fake, {
        owner: OWNER,
        repo: REPO,
        appId: bot.appId,
        pulls: [pull],
        roles: ROLES,
        config: "gate:\n  minRoundScore: fast\n",
      });
      expect(await deliver("issue_comment", comment(pull, "/rescore", "outsider"))).toBe(200);
      expect(fake.comments).toHaveLength(1);
      expect(fake.comments[0]?.body).not.toContain("speedgate-app.yml");
      expect(fake.comments[0]?.body).toContain("only people with write permission or higher");
      expect(await deliver("issue_comment", comment(pull, "/rescore", "maintainer"))).toBe(200);
      expect(fake.comments[1]?.body).toContain("gate.minRoundScore");
    });

    it("does not run a command that GitHub shows as code or as a quote", async () => {
      const pull = newPull();
      const repo = serveRepository(fake, { owner: OWNER, repo: REPO, appId: bot.appId, pulls: [pull], roles: ROLES });
      for (const body of ["    /rescore", "```\n/rescore\n```", "> /rescore", "`/rescore`", "\t/rescore"]) {
        expect(await deliver("issue_comment", comment(pull, body))).toBe(200);
      }
      expect(repo.dispatches).toEqual([]);
      expect(fake.requests).toEqual([]);
    });
  });

  describe("point 11: a captured delivery replayed under a new delivery id", () => {
    it("runs a comment's /rescore once, whatever the delivery id", async () => {
      const pull = newPull();
      const repo = serveRepository(fake, { owner: OWNER, repo: REPO, appId: bot.appId, pulls: [pull], roles: ROLES });
      const payload = comment(pull, "/rescore");
      expect(await deliver("issue_comment", payload)).toBe(200);
      expect(await deliver("issue_comment", payload)).toBe(200);
      expect(repo.dispatches).toHaveLength(1);
      // Even after the head moved on: the replay of the old approval must not score the new code.
      (repo.pulls[0] as FakePull).headSha = LATER;
      expect(await deliver("issue_comment", payload)).toBe(200);
      expect(repo.dispatches).toHaveLength(1);
    });

    it("ignores a /rescore written longer ago than a command stays valid", async () => {
      const pull = newPull({ pushedAt: minutesAgo(120) });
      const repo = serveRepository(fake, { owner: OWNER, repo: REPO, appId: bot.appId, pulls: [pull], roles: ROLES });
      expect(await deliver("issue_comment", comment(pull, "/rescore", "maintainer", { createdAt: minutesAgo(60) }))).toBe(200);
      expect(repo.dispatches).toEqual([]);
      expect(fake.requests).toEqual([]);
      await bot.waitFor(/ignoring \/rescore in comment \d+: written 60 min before GitHub sent it, over the 10 min a command stays valid/);
    });

    it("handles a workflow run's attempt once, whatever the delivery id", async () => {
      const pull = newPull({ headRepo: `${OWNER}/${REPO}`, author: "writer" });
      serveRepository(fake, {
        owner: OWNER,
        repo: REPO,
        appId: bot.appId,
        pulls: [pull],
        artifacts: { 701: zipScorecard(makeTestScorecard()) },
      });
      const payload = workflowRunCompleted({ id: 701, headSha: SHA, headBranch: pull.headBranch, headRepo: `${OWNER}/${REPO}` });
      expect(await deliver("workflow_run", payload)).toBe(200);
      expect(await deliver("workflow_run", payload)).toBe(200);
      expect(fake.calls("GET", "/repos/{owner}/{repo}/actions/runs/{run_id}/artifacts")).toHaveLength(1);
      expect(fake.checkRuns).toHaveLength(1);
    });
  });

  describe("point 3: another pull request cannot reset a concluded check", () => {
    it("keeps a scored commit's passing check when an outsider opens another pull request with the same head", async () => {
      const scored = newPull({ headRepo: `${OWNER}/${REPO}`, author: "writer" });
      const copycat = newPull({ headRepo: "outsider/Hello-World" });
      const repo = serveRepository(fake, {
        owner: OWNER,
        repo: REPO,
        appId: bot.appId,
        pulls: [scored],
        roles: ROLES,
        artifacts: { 711: zipScorecard(makeTestScorecard()) },
      });
      expect(
        await deliver(
          "workflow_run",
          workflowRunCompleted({ id: 711, headSha: SHA, headBranch: scored.headBranch, headRepo: `${OWNER}/${REPO}` }),
        ),
      ).toBe(200);
      expect(fake.checkRuns).toMatchObject([{ status: "completed", conclusion: "success" }]);
      repo.pulls.push(copycat);
      expect(await deliver("pull_request", pullRequestEvent("opened", { number: copycat.number, headSha: SHA, author: "outsider" }))).toBe(
        200,
      );
      // A fork's own pull_request run of the same commit does not reset it either.
      expect(
        await deliver(
          "workflow_run",
          workflowRunCompleted({ id: 712, headSha: SHA, headBranch: copycat.headBranch, headRepo: "outsider/Hello-World" }),
        ),
      ).toBe(200);
      expect(fake.checkRuns).toHaveLength(1);
      expect(fake.checkRuns[0]).toMatchObject({ status: "completed", conclusion: "success" });
    });

    it("with trigger auto, keeps it too rather than asking for a maintainer", async () => {
      const copycat = newPull({ headRepo: "outsider/Hello-World" });
      serveRepository(fake, { owner: OWNER, repo: REPO, appId: bot.appId, pulls: [copycat], roles: ROLES, config: "trigger: auto\n" });
      fake.checkRuns.push({
        id: fake.nextId(),
        name: "speedgate",
        headSha: SHA,
        status: "completed",
        conclusion: "success",
        title: "✅",
        summary: "",
        externalId: null,
        detailsUrl: null,
        appId: bot.appId,
      });
      expect(await deliver("pull_request", pullRequestEvent("opened", { number: copycat.number, headSha: SHA, author: "outsider" }))).toBe(
        200,
      );
      expect(fake.checkRuns).toHaveLength(1);
    });
  });

  describe("issue #15 point 8: the scoring workflow's name", () => {
    it("dispatches the workflow named in .github/speedgate-app.yml", async () => {
      const pull = newPull();
      const repo = serveRepository(fake, {
        owner: OWNER,
        repo: REPO,
        appId: bot.appId,
        pulls: [pull],
        roles: ROLES,
        config: "workflow: score-engine.yml\n",
        workflows: ["score-engine.yml"],
      });
      expect(await deliver("issue_comment", comment(pull, "/rescore"))).toBe(200);
      expect(repo.dispatches).toMatchObject([{ workflow: "score-engine.yml", inputs: { sha: SHA } }]);
    });

    it("says on the pull request and the check when GitHub refuses the dispatch of a missing workflow", async () => {
      const pull = newPull();
      serveRepository(fake, { owner: OWNER, repo: REPO, appId: bot.appId, pulls: [pull], roles: ROLES, workflows: ["score-engine.yml"] });
      expect(await deliver("issue_comment", comment(pull, "/rescore"))).toBe(200);
      expect(fake.checkRuns).toMatchObject([
        { headSha: SHA, status: "completed", conclusion: "failure", title: "The scoring workflow could not be started" },
      ]);
      for (const text of [fake.checkRuns[0]?.summary ?? "", fake.comments[0]?.body ?? ""]) {
        expect(text).toContain("GitHub answered 404");
        expect(text).toContain("`.github/workflows/speedgate.yml` on `main`");
        expect(text).toContain("Set `workflow:` in `.github/speedgate-app.yml`");
      }
    });
  });
});
