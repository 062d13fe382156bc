import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/vocabulary/config-error.js";
import { parseShardSpec } from "../../src/shard/shard-spec.js";

describe("parseShardSpec", () => {
  it("reads i/n as written in a workflow matrix", () => {
    expect(parseShardSpec("2/4", "shard")).toEqual({ index: 2, count: 4 });
    expect(parseShardSpec(" 1 / 1 ", "shard")).toEqual({ index: 1, count: 1 });
  });

  it.each(["5/4", "0/3", "1/0", "a/b", "3", "", "1/2/3", "-1/2", "1.5/3"])("rejects %j naming where it came from", (text) => {
    expect(() => parseShardSpec(text, "input shard")).toThrow(ConfigError);
    expect(() => parseShardSpec(text, "input shard")).toThrow(/^input shard: expected "i\/n"/);
  });
});
