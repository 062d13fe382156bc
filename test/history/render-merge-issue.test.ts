import { describe, expect, it } from "vitest";
import { renderMergeIssue, renderMergeLine } from "../../src/history/render-merge-issue.js";
import { judgeMergeRounds } from "../../src/watch/judge-merge-rounds.js";

const sha = "abcdef0123456789abcdef0123456789abcdef01";
const parent = "1234567890abcdef1234567890abcdef12345678";

const report = {
  merge: { sha, subject: "Merge pull request #11 from dev/fast-path", pullRequest: { number: 11, url: "https://github.com/o/e/pull/11" } },
  parent,
  judgement: judgeMergeRounds(
    [
      {
        scores: [
          { scenario: "decode", score: 0.92, interval: { low: 0.91, high: 0.93 } },
          { scenario: "chat", score: 0.999, interval: { low: 0.99, high: 1.01 } },
        ],
      },
    ],
    { maxDrift: 0.97, maxRepeats: 2 },
  ),
  maxDrift: 0.97,
  runs: [{ round: 1, url: "https://github.com/o/e/actions/runs/7" }],
  commitUrl: (commit: string) => `https://github.com/o/e/commit/${commit}`,
};

describe("renderMergeIssue", () => {
  it("leads with the merge, its pull request and what it did to the slowest scenario against its parent, with the bar", () => {
    const body = renderMergeIssue(report);
    expect(body.split("\n")[0]).toBe(
      "**Found: [#11](https://github.com/o/e/pull/11) [`abcdef012345`](https://github.com/o/e/commit/" +
        // The subject is engine text, escaped: "#11" in it is kept from linking an issue of GitHub's choosing.
        `${sha}) (Merge pull request #\u200b11 from dev/fast-path).** decode 8.0% slower [7.0%, 9.0%] against its parent, ` +
        "its whole 95% interval below the watch's bar of 0.97×.",
    );
    expect(body).toContain(`first parent [\`1234567890ab\`](https://github.com/o/e/commit/${parent})`);
    expect(body).toMatch(/\| decode +\| 0\.920× \(8\.0% slower \[7\.0%, 9\.0%\]\) +\| 1 +\| slower than the bar +\|/);
    expect(body).toMatch(/\| chat +\| .+ \| within the bar +\|/);
    expect(body).toContain("Runs: [round 1](https://github.com/o/e/actions/runs/7).");
  });

  it("gives a bisection's tracking issue one line naming the merge, its finding and its rounds", () => {
    expect(renderMergeLine(report)).toBe(
      "**Merge [#11](https://github.com/o/e/pull/11) [`abcdef012345`](https://github.com/o/e/commit/" +
        `${sha}), scored against its parent after it landed (\`watch.everyMerge\`):** decode 8.0% slower [7.0%, 9.0%] ` +
        "against its parent, below the bar of 0.97× (1 round).",
    );
  });
});
