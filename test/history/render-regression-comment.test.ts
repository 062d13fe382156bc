import { describe, expect, it } from "vitest";
import { describeAgo, renderRegressionComment } from "../../src/history/render-regression-comment.js";

describe("renderRegressionComment", () => {
  const base = {
    sha: "abcdef0123456789abcdef0123456789abcdef01",
    mergedAt: new Date("2026-03-01T10:00:00Z"),
    now: new Date("2026-03-04T12:00:00Z"),
    scenario: "decode-c32",
    estimate: { score: 0.959, interval: { low: 0.948, high: 0.971 } },
    share: 0.93,
    drift: { score: 0.955, interval: { low: 0.944, high: 0.966 } },
    runner: "gpu-runner-3",
    trackingUrl: "https://github.com/o/engine/issues/77",
    cardMarkdown: "## speedgate: 0.959× …",
  };

  it("says when the merge landed, what it did to the scenario with its interval, on which runner, and links the steps", () => {
    const markdown = renderRegressionComment(base);
    expect(markdown).toContain(
      "Merged 3 days ago: decode-c32 4.1% slower [2.9%, 5.2%] on gpu-runner-3, measured as `abcdef012345` against its own parent.",
    );
    expect(markdown).toContain("That is 93% of a drift of main of 4.5% slower [3.4%, 5.6%] that");
    expect(markdown).toContain("([its steps](https://github.com/o/engine/issues/77))");
    expect(markdown).toContain("<details><summary>The merge's card against its parent</summary>\n\n## speedgate: 0.959× …");
  });

  it("leaves out what it does not know, and escapes a runner's name", () => {
    const markdown = renderRegressionComment({ ...base, runner: "<img src=x>", trackingUrl: null, cardMarkdown: null });
    expect(markdown).not.toContain("<img");
    expect(markdown).not.toContain("its steps");
    expect(markdown).not.toContain("<details>");
  });

  it("words how long ago as a person would", () => {
    const now = new Date("2026-03-04T12:00:00Z");
    expect(describeAgo(new Date("2026-03-04T11:30:00Z"), now)).toBe("less than an hour ago");
    expect(describeAgo(new Date("2026-03-04T11:00:00Z"), now)).toBe("1 hour ago");
    expect(describeAgo(new Date("2026-03-03T00:00:00Z"), now)).toBe("36 hours ago");
    expect(describeAgo(new Date("2026-02-25T12:00:00Z"), now)).toBe("7 days ago");
  });

  it("says a merge watch.everyMerge scored was found against its parent and the bar, not as a share of a bisected drift", () => {
    const markdown = renderRegressionComment({ ...base, share: null, drift: null, maxDrift: 0.97, rounds: 2 });
    expect(markdown).toContain(
      "The watch scores each merge against its parent after it lands (`watch.everyMerge`): this one's whole interval lies " +
        "below the bar of 0.97× (2 rounds pooled) ([the tracking issue](https://github.com/o/engine/issues/77)).",
    );
    expect(markdown).not.toContain("of a drift of main");
  });
});
