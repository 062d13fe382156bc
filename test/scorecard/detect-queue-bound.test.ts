import { describe, expect, it } from "vitest";
import { detectQueueBound } from "../../src/scorecard/detect-queue-bound.js";
import { renderMarkdown } from "../../src/scorecard/render/render-markdown.js";
import { renderText } from "../../src/scorecard/render/render-text.js";
import type { Scorecard } from "../../src/scorecard/scorecard-schema.js";
import { makeCard } from "../../harness/make-card.js";

/** Twelve prompts a third faster: the baseline's first token after 120 ms each, one request every 500 ms. */
function steadyCard(): Scorecard {
  return makeCard(Array.from({ length: 12 }, () => ({ speedup: 1.3 })));
}

function withEngineTimes(card: Scorecard, promptMs: number): Scorecard {
  const side = { requests: 12, promptMs, decodeMsPerToken: 2, statistic: "median" as const };
  return { ...card, engineTimes: { source: "llama.cpp timings", baseline: side, candidate: side } };
}

describe("detectQueueBound", () => {
  it(
    "finds none when the engine's own prompt time accounts for its first token, or when nobody reports one and the first token never " +
      "comes later",
    () => {
      expect(detectQueueBound(steadyCard())).toBeNull();
      expect(detectQueueBound(withEngineTimes(steadyCard(), 100))).toBeNull();
    },
  );

  it("reads tens of milliseconds beyond the engine's prompt time as a request's way in, not a queue", () => {
    // An idle SGLang on a GPU: 8 ms of prefill, 45 ms to a first token at the client (HTTP, tokenizer, IPC).
    const card = withEngineTimes(steadyCard(), 8);
    const metrics = card.metrics as NonNullable<Scorecard["metrics"]>;
    const idle = {
      ...card,
      metrics: { ...metrics, baseline: { ...metrics.baseline, ttftMs: { ...metrics.baseline.ttftMs, median: 45 } } },
    };
    expect(detectQueueBound(idle)).toBeNull();
    const queued = {
      ...idle,
      metrics: { ...idle.metrics, baseline: { ...idle.metrics.baseline, ttftMs: { ...idle.metrics.baseline.ttftMs, median: 80 } } },
    };
    expect(detectQueueBound(queued)?.why).toBe(
      "the baseline's median time to first token was 80.0 ms, of which its own prompt processing was 8.0 ms: 88% was waiting in its queue",
    );
  });

  it("names a round whose client TTFT is mostly waiting for the engine's own prompt time, and the interval that fixes it", () => {
    const found = detectQueueBound(withEngineTimes(steadyCard(), 3.9));
    expect(found?.why).toBe(
      "the baseline's median time to first token was 120 ms, of which its own prompt processing was 3.9 ms: 95% was waiting in its queue",
    );
    expect(found?.fix).toMatch(/^set bench\.requestIntervalMs to at least [\d,]+ ms \(it is 500 ms\)/);
  });

  it("names a round whose first tokens came ever later from the client's clock alone: arrivals faster than the baseline serves", () => {
    const card = steadyCard();
    const growing = {
      ...card,
      prompts: card.prompts.map((prompt, index) => ({
        ...prompt,
        baseline: prompt.baseline && { ...prompt.baseline, ttftMs: 40 + index * 60 },
      })),
    };
    expect(detectQueueBound(growing)?.why).toBe(
      "the baseline's first token came 100 ms after the request for the first quarter of the prompts and 640 ms for the last: " +
        "requests arrived faster than it served them",
    );
  });

  it("under a closed loop, asks for fewer requests in flight, and reads no growing queue into later first tokens", () => {
    const card = withEngineTimes(steadyCard(), 3.9);
    const closed = { ...card, settings: { ...card.settings, concurrency: 32 } };
    expect(detectQueueBound(closed)?.fix).toBe(
      "lower bench.concurrency (it is 32) to the engine's parallel slots, or give the engine more, then calibrate again",
    );
    // A closed loop sends a prompt only as an answer ends: first tokens coming later are not arrivals outrunning the engine.
    const plain = steadyCard();
    const growing = {
      ...plain,
      settings: { ...plain.settings, concurrency: 4 },
      prompts: plain.prompts.map((prompt, index) => ({
        ...prompt,
        baseline: prompt.baseline && { ...prompt.baseline, ttftMs: 40 + index * 60 },
      })),
    };
    expect(detectQueueBound(growing)).toBeNull();
  });

  it("flags a closed loop that keeps more in flight than the baseline's command gives slots, with no engine times to read (#39)", () => {
    const plain = steadyCard();
    const engineSlots = { slots: 4, setting: "-np 4" };
    const decodeC8 = { ...plain, settings: { ...plain.settings, concurrency: 8, engineSlots } };
    expect(plain.engineTimes?.baseline ?? null).toBeNull();
    const found = detectQueueBound(decodeC8);
    expect(found?.why).toBe(
      "bench.concurrency 8 keeps that many requests in flight on a baseline with 4 parallel slots (`-np 4` in baseline.command): " +
        "4 of them (50%) wait in its queue at any time",
    );
    expect(found?.fix).toBe("lower bench.concurrency (it is 8) to its 4 parallel slots, or give the engine more, then calibrate again");
    expect(found?.fix).not.toContain("requestIntervalMs");
    // Within its slots, or slots the command does not say, nothing queues that the card can tell.
    expect(detectQueueBound({ ...plain, settings: { ...plain.settings, concurrency: 4, engineSlots } })).toBeNull();
    expect(detectQueueBound({ ...plain, settings: { ...plain.settings, concurrency: 8 } })).toBeNull();
    // A pull request that changes the slots is told that draining this queue is its effect.
    const drained = detectQueueBound({
      ...decodeC8,
      settings: { ...decodeC8.settings, slotsChanged: "`-np 4` → `-np 8` in candidate.command" },
    });
    expect(drained?.slotsChanged).toBe("`-np 4` → `-np 8` in candidate.command");
    expect(drained?.fix).not.toContain("lower bench.concurrency");
  });

  it("never tells a pull request that changes the engine's slots to lower the load to the baseline's (#39)", () => {
    const card = withEngineTimes(steadyCard(), 3.9);
    const slots = "-np changed in serve.sh";
    const closed = { ...card, settings: { ...card.settings, concurrency: 4, slotsChanged: slots } };
    const found = detectQueueBound(closed);
    expect(found).toMatchObject({ slotsChanged: slots });
    expect(found?.fix).toBe(
      "to also see it where neither engine queues, add a scenario at a load the baseline keeps up with (a bench.concurrency within " +
        "its slots), beside this one",
    );
    expect(found?.fix).not.toContain("lower bench.concurrency");
    const markdown = renderMarkdown(closed);
    expect(markdown).toContain("The pull request changes the engine's parallel slots (-np changed in `serve.sh`): draining");
    expect(markdown).not.toContain("not the patch");
    // An open loop is never told to lower a concurrency it does not have, nor a closed one to slow an interval it does not use.
    const open = { ...card, settings: { ...card.settings, slotsChanged: slots } };
    expect(detectQueueBound(open)?.fix).toContain("(a slower bench.requestIntervalMs)");
    expect(detectQueueBound({ ...card, settings: { ...card.settings, concurrency: 4 } })?.fix).not.toContain("requestIntervalMs");
  });

  it("puts it on both cards' first screen, before the details", () => {
    const card = withEngineTimes(steadyCard(), 3.9);
    const markdown = renderMarkdown(card);
    expect(markdown).toContain("> [!WARNING]\n> **Queue-bound round**: the baseline's median time to first token was 120 ms");
    expect(markdown.indexOf("Queue-bound round")).toBeLessThan(markdown.indexOf("<details>"));
    const text = renderText(card);
    expect(text.indexOf("Queue-bound round: ")).toBeLessThan(text.indexOf("How the score was measured"));
    expect(renderMarkdown(steadyCard())).not.toContain("Queue-bound");
  });
});
