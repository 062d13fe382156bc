import { describe, expect, it } from "vitest";
import { buildWarmupPrompts } from "../../src/client/build-warmup-prompts.js";
import type { Prompt } from "../../src/prompts/prompt.js";
import { promptContentKey } from "../../src/prompts/prompt-content-key.js";

const prompts: Prompt[] = [
  {
    id: "chat",
    maxTokens: 64,
    messages: [
      { role: "system", content: "You are a careful assistant who answers in one paragraph." },
      { role: "user", content: "Explain why the sky is blue to a curious ten-year-old." },
    ],
  },
  { id: "completion", prompt: "The three laws of thermodynamics state that" },
  {
    id: "parts",
    messages: [
      {
        role: "user",
        content: [
          { type: "text", text: "Describe this picture in detail." },
          { type: "image_url", image_url: { url: "data:," } },
        ],
      },
    ],
  },
];

const measured = new Set(prompts.map((prompt) => promptContentKey(prompt)));

describe("buildWarmupPrompts", () => {
  it("shapes each warm-up like a measured prompt in turn, with none of its text", () => {
    const warmups = buildWarmupPrompts(prompts, 7);
    expect(warmups.map((warmup) => warmup.id)).toEqual([
      "warmup-1",
      "warmup-2",
      "warmup-3",
      "warmup-4",
      "warmup-5",
      "warmup-6",
      "warmup-7",
    ]);
    for (const [index, warmup] of warmups.entries()) {
      const template = prompts[index % prompts.length] as Prompt;
      expect(measured.has(promptContentKey(warmup))).toBe(false);
      expect(warmup.maxTokens).toBe(template.maxTokens);
      expect(warmup.prompt === undefined).toBe(template.prompt === undefined);
      expect(warmup.messages?.map((message) => message.role)).toEqual(template.messages?.map((message) => message.role));
    }
    // The same prefill size: each text about as long as the one it stands in for, in words of the set.
    const [chat, completion, parts] = warmups;
    const system = chat?.messages?.[0]?.content as string;
    expect(system.length).toBeGreaterThanOrEqual(57);
    expect(system.length).toBeLessThan(57 + 30);
    expect(system).not.toBe(prompts[0]?.messages?.[0]?.content);
    expect((completion?.prompt ?? "").length).toBeGreaterThanOrEqual(43);
    const vocabulary = new Set(prompts.flatMap((prompt) => JSON.stringify(prompt).match(/[A-Za-z-]+/g) ?? []));
    expect(system.split(" ").every((word) => vocabulary.has(word.replace(/[.,]$/, "")))).toBe(true);
    // A picture is kept as it is, its text part is drawn anew.
    expect(parts?.messages?.[0]?.content).toMatchObject([{ type: "text" }, { type: "image_url", image_url: { url: "data:," } }]);
  });

  it("draws anew on every call, so the warm-ups of one round say nothing of another's", () => {
    const first = buildWarmupPrompts(prompts, 3).map((prompt) => promptContentKey(prompt));
    const second = buildWarmupPrompts(prompts, 3).map((prompt) => promptContentKey(prompt));
    expect(first).not.toEqual(second);
  });

  it("never repeats a measured prompt, even when the set has only one word to draw from", () => {
    const oneWord: Prompt[] = [
      { id: "a", prompt: "hello" },
      { id: "b", messages: [{ role: "user", content: "" }] },
    ];
    const keys = new Set(oneWord.map((prompt) => promptContentKey(prompt)));
    for (const warmup of buildWarmupPrompts(oneWord, 6)) expect(keys.has(promptContentKey(warmup))).toBe(false);
  });

  it("builds nothing without warm-up requests or prompts", () => {
    expect(buildWarmupPrompts(prompts, 0)).toEqual([]);
    expect(buildWarmupPrompts([], 3)).toEqual([]);
  });
});
