import { describe, expect, it } from "vitest";
import { anyOf } from "../../src/failure/any-of-patterns.js";

describe("anyOf", () => {
  it("is the alternation written as one literal, flags included", () => {
    const joined = anyOf([/CUDA out of memory/, /port \d+ is (?:already )?in use/, /^MemoryError\b/], "i");
    expect(joined).toEqual(/CUDA out of memory|port \d+ is (?:already )?in use|^MemoryError\b/i);
    expect(joined.test("cuda OUT of memory")).toBe(true);
    expect(joined.test("oops: MemoryError")).toBe(false);
  });
});
