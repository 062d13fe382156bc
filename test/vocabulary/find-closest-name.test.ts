import { describe, expect, it } from "vitest";
import { findClosestName } from "../../src/vocabulary/find-closest-name.js";

describe("findClosestName", () => {
  const FIELDS = ["prompts", "model", "maxTokens", "requestIntervalMs", "contextLimit", "tolerance", "runs", "order"];

  it("finds the field a misspelling meant: a wrong, missing, extra or swapped letter, in any case", () => {
    expect(findClosestName("tolerence", FIELDS)).toBe("tolerance");
    expect(findClosestName("maxtokens", FIELDS)).toBe("maxTokens");
    expect(findClosestName("contextLimt", FIELDS)).toBe("contextLimit");
    expect(findClosestName("promtps", FIELDS)).toBe("prompts");
  });

  it("says nothing for a word close to none, to two alike, or for the name itself", () => {
    expect(findClosestName("temperature", FIELDS)).toBeNull();
    expect(findClosestName("rung", ["runs", "rune"])).toBeNull();
    expect(findClosestName("runs", FIELDS)).toBeNull();
  });
});
