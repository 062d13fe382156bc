import { describe, expect, it } from "vitest";
import { describeSharedPrompts, findSharedPrompts } from "../../src/vocabulary/find-shared-prompts.js";

describe("findSharedPrompts", () => {
  it("groups the scenarios whose prompts hash alike, in the round's order, and leaves out those alone or unknown", () => {
    const groups = findSharedPrompts([
      { name: "chat-rate4", promptsHash: "a" },
      { name: "decode-c1", promptsHash: "b" },
      { name: "chat-rate16", promptsHash: "a" },
      { name: "decode-c32", promptsHash: "c" },
      { name: "chat-inf", promptsHash: "a" },
      { name: "unread", promptsHash: null },
      { name: "unread-too", promptsHash: null },
    ]);
    expect(groups).toEqual([["chat-rate4", "chat-rate16", "chat-inf"]]);
  });

  it("says what a shared prompt set does to the later scenarios and how to measure them cold; nothing when none share", () => {
    expect(describeSharedPrompts([])).toBeNull();
    const note = describeSharedPrompts([
      ["chat-rate4", "chat-rate16"],
      ["pp", "pp-c4", "pp-c8"],
    ]);
    expect(note).toContain("scenarios chat-rate4 and chat-rate16; pp, pp-c4 and pp-c8 send the same prompts");
    expect(note).toMatch(/prefix cache/);
    expect(note).toMatch(/another seed/);
  });
});
