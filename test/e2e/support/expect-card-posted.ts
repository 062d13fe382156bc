import { expect } from "vitest";
import { describeVerdict } from "../../../src/scorecard/render/describe-card.js";
import { DEFAULT_APP_DOCS_URL } from "../../../bot/resolve-app-docs-url.js";
import { CARD_MARKER, renderMarkdown } from "../../../src/scorecard/render/render-markdown.js";
import type { FakeGitHub } from "../../../harness/fake-github/fake-github-server.js";
import type { ScoringJob } from "./play-scoring-job.js";

/**
 * The card without the line the app adds under its headline from the pull request's history ("Earlier
 * commits: …"), which the runner cannot know.
 */
export function withoutCommitTrend(markdown: string): string {
  const lines = markdown.split("\n");
  const at = lines.findIndex((line) => line.startsWith("Earlier commits: "));
  if (at < 0) return markdown;
  lines.splice(at - 1, 2);
  return lines.join("\n");
}

/**
 * What a maintainer sees once the app handled the run: one comment on the pull request holding the
 * card the runner rendered (the app's run stamp on the line after its marker), and one `speedgate`
 * check on the scored commit whose conclusion follows the gate, titled with the verdict, with the
 * card as its summary. The app renders the runner's card with its own troubleshooting links (never the
 * artifact's) and may add the pull request's trend line. Replies to `/rescore` are other comments.
 */
export function expectCardPosted(fake: FakeGitHub, expected: { pullRequest: number; headSha: string; job: ScoringJob }): void {
  const { job } = expected;
  const markdown = renderMarkdown({ ...job.card, docsBaseUrl: DEFAULT_APP_DOCS_URL });
  const cards = fake.comments.filter((comment) => comment.body.startsWith(CARD_MARKER));
  expect(cards).toHaveLength(1);
  expect(cards[0]?.issueNumber).toBe(expected.pullRequest);
  const [marker, stamp, ...rest] = (cards[0]?.body ?? "").split("\n");
  expect(stamp).toMatch(/^<!-- speedgate-run \{.*\} -->$/);
  expect(withoutCommitTrend([marker, ...rest].join("\n")).startsWith(markdown.trimEnd())).toBe(true);
  const verdict = describeVerdict(job.card);
  expect(fake.checkRuns.filter((check) => check.headSha === expected.headSha)).toEqual([
    expect.objectContaining({
      name: "speedgate",
      status: "completed",
      conclusion: verdict.passed ? "success" : "failure",
      title: verdict.headline,
    }),
  ]);
  expect(withoutCommitTrend(fake.checkRuns.find((check) => check.headSha === expected.headSha)?.summary ?? "")).toBe(markdown);
}
