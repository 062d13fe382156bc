import { beforeEach, describe, expect, it } from "vitest";
import { OWNER, workflowRunCompleted } from "../../harness/fake-github/adjust-payloads.js";
import { makeTestScorecard, zipScorecard } from "../../harness/fake-github/make-test-scorecard.js";
import { deliverAndSettle } from "../../harness/fake-github/send-webhook.js";
import { type FakeRepositoryOptions, serveRepository } from "../../harness/fake-github/serve-repository.js";
import type { BotProcess } from "../support/fake-github/start-bot-process.js";
import { useBotProcess } from "../support/fake-github/use-bot-process.js";
import { concatPatterns } from "../support/concat-patterns.js";

/*
 * Issue #24, point 5: branch protection that requires the `speedgate` check by name alone is satisfied
 * by any check run or commit status of that name, which a pull request's own workflow can post. The
 * app reads which source the default branch's protection and rulesets expect and, when it is not this
 * app, says so under the card on the check it concludes (two API calls per repository per hour).
 */

const SHA = "f6".repeat(20);
let nextRun = 9100;

describe("the required check's source, read by `npm run bot`", () => {
  const { fake, bot: running } = useBotProcess();
  let bot: BotProcess;
  beforeEach(() => {
    bot = running();
  });

  /** A card for a pull request of `repo` (each test its own repository: the app reads a repository's rules once an hour). */
  async function postCard(repo: string, requiredChecks: FakeRepositoryOptions["requiredChecks"]): Promise<void> {
    const id = ++nextRun;
    serveRepository(fake, {
      owner: OWNER,
      repo,
      appId: bot.appId,
      pulls: [{ number: 4, headSha: SHA, headRepo: `${OWNER}/${repo}`, headBranch: "fast", author: "writer" }],
      artifacts: { [id]: zipScorecard(makeTestScorecard()) },
      ...(requiredChecks ? { requiredChecks } : {}),
    });
    const payload = workflowRunCompleted({ id, headSha: SHA, headBranch: "fast", headRepo: `${OWNER}/${repo}` });
    const repository = payload.repository as { name: string; full_name: string };
    repository.name = repo;
    repository.full_name = `${OWNER}/${repo}`;
    expect(await deliverAndSettle(bot, "workflow_run", payload)).toBe(200);
  }

  it("warns on the check when branch protection requires `speedgate` from any source, and reads it once an hour", async () => {
    await postCard("Unpinned", { protection: [{ context: "speedgate", appId: null }] });
    expect(fake.checkRuns).toMatchObject([{ headSha: SHA, status: "completed", conclusion: "success" }]);
    expect(fake.checkRuns[0]?.text).toMatch(
      concatPatterns(
        /^⚠️ The branch protection of `main` requires the `speedgate` check from any source: a pull request's own workflow can post a /,
        /check or a status named `speedgate` and satisfy it\. Set the required check's source to this app /,
        /\(https:\/\/.*\/docs\/deploying-the-app\.md#require-the-speedgate-check-pinned-to-the-app\)\.$/,
      ),
    );
    // The card itself is unchanged: the warning is the check's text, under it.
    expect(fake.checkRuns[0]?.summary).not.toContain("⚠️ The branch protection");
    await postCard("Unpinned", { protection: [{ context: "speedgate", appId: null }] });
    expect(fake.calls("GET", "/repos/{owner}/{repo}/branches/{branch}")).toHaveLength(1);
    expect(fake.calls("GET", "/repos/{owner}/{repo}/rules/branches/{branch}")).toHaveLength(1);
  });

  it("warns when a ruleset expects another app, and says nothing when every requirement names this app", async () => {
    await postCard("OtherApp", { rulesets: [{ context: "speedgate", integrationId: 15368 }] });
    expect(fake.checkRuns[0]?.text).toContain(
      `The ruleset of \`main\` requires the \`speedgate\` check from another app (id 15368), not from this one (id ${bot.appId})`,
    );
    fake.reset();
    await postCard("Pinned", {
      protection: [{ context: "speedgate", appId: bot.appId }],
      rulesets: [{ context: "speedgate", integrationId: bot.appId }],
    });
    expect(fake.checkRuns).toMatchObject([{ conclusion: "success" }]);
    expect(fake.checkRuns[0]?.text).toBeUndefined();
  });

  it("says nothing when `speedgate` is not required at all", async () => {
    await postCard("Unprotected", undefined);
    expect(fake.checkRuns[0]?.text).toBeUndefined();
  });
});
