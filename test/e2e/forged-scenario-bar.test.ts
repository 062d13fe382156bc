import { randomUUID } from "node:crypto";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { SLOWER_PATCH, type ActionRound, writeActionRound } from "../action/support/write-action-round.js";
import { workflowRunCompleted } from "../../harness/fake-github/adjust-payloads.js";
import { deliverAndSettle } from "../../harness/fake-github/send-webhook.js";
import { useBotProcess } from "../support/fake-github/use-bot-process.js";
import { playScoringJob } from "./support/play-scoring-job.js";
import { serveExamplePullRequest } from "./support/serve-example-pull-request.js";

/*
 * #39, the attack on one source of truth for bars: a pull request that makes the engine twice as slow edits its own round
 * config so that both scenarios are guards allowed to be 90% slower. The bundled action runs that config and its card
 * passes. The app, over HTTP with a signed delivery, holds each scenario to the bar of the round config on the default
 * branch (read through the GitHub API, as its settings are), not to the card's: the check fails, and the card it posts
 * names both scenarios whose card claimed another bar. Before #39's second half the app's own gate (1.0×) decided here
 * too, but it said nothing of the card's claim, and a guard the default branch names had to be repeated in its settings.
 */
describe("a pull request that edits its own round config to loosen a scenario's bar (action, artifact, app over HTTP)", () => {
  const { fake, bot } = useBotProcess();
  let round: ActionRound;
  const forgedGate = { role: "guard" as const, margin: 0.9 };

  beforeAll(async () => {
    round = await writeActionRound({
      prompts: 10,
      candidate: { trusted: true },
      scenarios: [
        { name: "answers", gate: forgedGate },
        { name: "first-token", maxTokens: 1, gate: forgedGate },
      ],
    });
  });
  afterAll(async () => {
    await rm(round.dir, { recursive: true, force: true });
  });

  it("is re-gated with the default branch's bars: the check fails and the card says which bars the round's card claimed", async () => {
    const app = bot();
    // The maintainers' round config: the same round, its answers a target and its first token a guard at the default margin.
    const maintained = parse(await readFile(round.configPath, "utf8")) as { scenarios: Array<Record<string, unknown>> };
    maintained.scenarios = [{ name: "answers" }, { name: "first-token", maxTokens: 1, gate: { role: "guard" } }];
    const served = serveExamplePullRequest(fake, app.appId, { ".github/speedgate/round.yaml": stringify(maintained) });
    const { head } = served;
    served.diffs.set(`${head.baseSha}...${head.headSha}`, SLOWER_PATCH);
    const job = await playScoringJob({
      workDir: join(round.dir, "job"),
      runId: 7301,
      event: served.event,
      configPath: round.configPath,
      apiUrl: fake.apiUrl,
      failOnGate: false,
    });
    expect(job.main.exitCode, job.main.stdout + job.main.stderr).toBe(0);
    // The round's own card passes: its (edited) round config lets each scenario be 90% slower.
    expect(job.card.gate.passed, job.card.gate.reason).toBe(true);
    expect(job.card.scenarios?.map(({ card }) => [card.gate.role, card.gate.margin])).toEqual([
      ["guard", 0.9],
      ["guard", 0.9],
    ]);
    // Clearly slower where answers are timed; a one-token answer is mostly fixed cost (HTTP, scheduling), which a loaded machine
    // inflates for both engines alike, so its score is not asserted: the check fails on the target whatever the guard's verdict.
    const answers = job.card.scenarios?.find(({ name }) => name === "answers")?.card;
    expect(answers?.roundScore ?? 1, job.card.gate.reason).toBeLessThan(0.8);

    served.repo.artifacts.set(7301, job.artifact);
    const run = workflowRunCompleted({ id: 7301, headSha: head.headSha, headBranch: head.headBranch, headRepo: head.headRepo });
    expect(await deliverAndSettle(app, "workflow_run", run, randomUUID())).toBe(200);
    expect(fake.checkRuns.map((check) => [check.headSha, check.conclusion])).toEqual([[head.headSha, "failure"]]);
    const body = fake.comments.find((comment) => comment.body.startsWith("<!-- speedgate -->"))?.body ?? "";
    expect(body).toContain("| **answers** | target ≥ 1.00× |");
    expect(body).toContain("| **first-token** | guard ≥ 0.95× |");
    expect(body).toContain(
      "Bars from the round config on the default branch (`.github/speedgate/round.yaml`): **answers**, **first-token**.",
    );
    expect(body).toContain(
      "**Another bar than the round's card**: the round's own card made **answers** a guard (fails only when surely more than 90% " +
        "slower); the default branch's round config makes it a target at 1.00×, which decides; the round's own card made " +
        "**first-token** a guard (fails only when surely more than 90% slower); the default branch's round config makes it a guard " +
        "(fails only when surely " +
        "more than 5% slower), which decides.",
    );
    // The check holds the same card: the two cannot disagree.
    expect(fake.checkRuns[0]?.summary).toContain("**Another bar than the round's card**");
  });
});
