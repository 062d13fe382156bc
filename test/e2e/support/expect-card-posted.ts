import { expect } from "vitest";
import { describeVerdict } from "../../../src/scorecard/describe-card.js";
import { CARD_MARKER } from "../../../src/scorecard/render-markdown.js";
import type { FakeGitHub } from "../../support/fake-github/fake-github-server.js";
import type { ScoringJob } from "./play-scoring-job.js";

/**
 * What a maintainer sees once the app handled the run: one comment on the pull request holding the
 * card the runner rendered (the app's run stamp on the line after its marker), and one `speedgate`
 * check on the scored commit whose conclusion follows the gate, titled with the verdict, with the
 * card as its summary. Replies to `/rescore` are other comments.
 */
export function expectCardPosted(fake: FakeGitHub, expected: { pullRequest: number; headSha: string; job: ScoringJob }): void {
  const { job } = expected;
  const cards = fake.comments.filter((comment) => comment.body.startsWith(CARD_MARKER));
  expect(cards).toHaveLength(1);
  expect(cards[0]?.issueNumber).toBe(expected.pullRequest);
  const [marker, stamp, ...rest] = (cards[0]?.body ?? "").split("\n");
  expect(stamp).toMatch(/^<!-- speedgate-run \{.*\} -->$/);
  expect([marker, ...rest].join("\n").startsWith(job.markdown.trimEnd())).toBe(true);
  const verdict = describeVerdict(job.card);
  expect(fake.checkRuns.filter((check) => check.headSha === expected.headSha)).toEqual([
    expect.objectContaining({
      name: "speedgate",
      status: "completed",
      conclusion: verdict.passed ? "success" : "failure",
      title: verdict.headline,
      summary: job.markdown,
    }),
  ]);
}
