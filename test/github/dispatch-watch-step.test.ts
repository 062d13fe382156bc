import { describe, expect, it } from "vitest";
import { mergeRunTitle, parseMergeRunTitle, parseStepRunTitle } from "../../src/github/dispatch-watch-step.js";

describe("a merge round's run title (watch.everyMerge)", () => {
  const sha = "0123456789abcdef0123456789abcdef01234567";

  it("names the merge and its round, reads back only a merge round's title, and is never taken for a bisection's step", () => {
    const title = mergeRunTitle(sha, 2);
    expect(title).toBe(`speedgate merge ${sha} 2`);
    expect(parseMergeRunTitle(title)).toEqual({ sha, round: 2 });
    expect(parseStepRunTitle(title)).toBeNull();
    expect(parseMergeRunTitle("speedgate bisection 12 probe-8-2")).toBeNull();
    expect(parseMergeRunTitle("speedgate-watch")).toBeNull();
    // A short or upper-case SHA is not one the app dispatched.
    expect(parseMergeRunTitle(`speedgate merge ${sha.slice(0, 12)} 1`)).toBeNull();
    expect(parseMergeRunTitle(`speedgate merge ${sha.toUpperCase()} 1`)).toBeNull();
  });
});
