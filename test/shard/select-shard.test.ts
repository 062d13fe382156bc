import { describe, expect, it } from "vitest";
import { selectShard } from "../../src/shard/select-shard.js";

const prompts = Array.from({ length: 23 }, (_, index) => ({ id: `q${(index * 7) % 23}`, text: `prompt ${index}` }));

function split(items: typeof prompts, count: number) {
  return Array.from({ length: count }, (_, index) => selectShard(items, { index: index + 1, count }));
}

describe("selectShard", () => {
  it("gives every prompt to exactly one shard", () => {
    const shards = split(prompts, 4);
    const ids = shards.flatMap((shard) => shard.map((prompt) => prompt.id));
    expect(ids.slice().sort()).toEqual(prompts.map((prompt) => prompt.id).sort());
    expect(new Set(ids).size).toBe(prompts.length);
  });

  it("keeps shards within one prompt of each other", () => {
    const sizes = split(prompts, 4).map((shard) => shard.length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
  });

  it("chooses the same prompts whatever order the file lists them in", () => {
    const reversed = prompts.slice().reverse();
    for (let index = 1; index <= 3; index++) {
      const a = selectShard(prompts, { index, count: 3 })
        .map((prompt) => prompt.id)
        .sort();
      const b = selectShard(reversed, { index, count: 3 })
        .map((prompt) => prompt.id)
        .sort();
      expect(b).toEqual(a);
    }
  });

  it("keeps the file's order inside a shard, which is the order requests are sent in", () => {
    const shard = selectShard(prompts, { index: 2, count: 3 });
    const positions = shard.map((prompt) => prompts.indexOf(prompt));
    expect(positions).toEqual(positions.slice().sort((a, b) => a - b));
  });

  it("returns everything for 1/1 and nothing for a shard beyond the prompts", () => {
    expect(selectShard(prompts, { index: 1, count: 1 })).toEqual(prompts);
    expect(selectShard(prompts.slice(0, 2), { index: 3, count: 3 })).toEqual([]);
  });

  it("rejects an impossible shard", () => {
    expect(() => selectShard(prompts, { index: 5, count: 4 })).toThrow(/1 <= index <= count/);
    expect(() => selectShard(prompts, { index: 0, count: 4 })).toThrow(RangeError);
  });
});
