import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { engineFamily } from "../../src/vocabulary/engine-family.js";
import { classifyFailure } from "../../src/failure/classify-failure.js";
import { parseScorecardJson } from "../../src/scorecard/read-scorecard.js";
import { toLogTail } from "../../src/safe-text/sanitize-log-tail.js";
import { EXAMPLES_DIR, buildExampleCards } from "../../scripts/lib/build-example-cards.js";
import { renderCardHtml } from "../../scripts/lib/render-card-html.js";

const read = (name: string): Promise<string> => readFile(new URL(name, EXAMPLES_DIR), "utf8");

describe("examples/cards", async () => {
  const examples = await buildExampleCards();

  // Byte for byte, as npm run examples writes it; the Markdown and text rendered from this JSON are
  // pinned by test/scorecard/render/render-example-cards.test.ts.
  it.each(examples.map((example) => [example.name, example] as const))(
    "%s is what the current code makes (npm run examples regenerates it)",
    async (name, { card }) => {
      const json = await read(`${name}.json`);
      expect(json).toBe(`${JSON.stringify(card, null, 2)}\n`);
      expect(parseScorecardJson(json, name)).toEqual(card);
    },
  );

  // The quality cards' candidate changes its numerics on purpose: their answers part, and are judged by the question set.
  const honest = examples.filter((example) => example.card.promptsScored > 0 && !example.card.quality);
  it.each(honest.map((example) => [example.name, example] as const))(
    "%s compares the answers, as a real round does: its records carry their text, so it has a median agreement",
    (_name, { card }) => {
      expect(card.medianAgreement).toBe(1);
      expect(card.prompts.filter((prompt) => prompt.status === "scored").every((prompt) => prompt.agreement === 1)).toBe(true);
    },
  );

  it.each(["quality-numerics-change", "quality-drop"])(
    "%s parts every third answer after 60% of its tokens, judged by the question set: timed at full length, none unscored",
    (name) => {
      const card = examples.find((example) => example.name === name)?.card;
      expect(card?.gate.answers).toBe("quality");
      expect(card?.unexplained).toBe(4);
      const parted = card?.prompts.filter((prompt) => (prompt.agreement ?? 1) < 1).map((prompt) => prompt.id);
      expect(parted).toEqual(["sharegpt-0003", "sharegpt-0006", "sharegpt-0009", "sharegpt-0012"]);
      expect(card?.unscored).toBe(0);
      expect(card?.quality?.questions).toHaveLength(200);
    },
  );

  it.each(["candidate-cuda-oom", "candidate-cuda-oom-busy-runner"])(
    "%s agrees with its own log: failure, hint and summary come from classifying it",
    async (name) => {
      const card = parseScorecardJson(await read(`${name}.json`), name);
      const log = toLogTail(await read(`${name}.log`));
      // A round of one run names no run for its failure.
      expect(card.failure).toEqual({
        ...classifyFailure({
          role: "candidate",
          stage: "startup",
          exit: { exitCode: 1, signal: null, oomKilled: false },
          logLines: log,
          engine: engineFamily(card.engine),
        }),
        run: null,
      });
      expect(log).toContain(card.failure?.summary);
      // The GPU the log ran out of memory on is the one nvidia-smi showed.
      const gpuIndex = Number(/GPU (\d+) has a total capacity/.exec(card.failure?.summary ?? "")?.[1]);
      expect(card.gpuState?.candidate?.gpus.some((gpu) => gpu.index === gpuIndex)).toBe(true);
      const holder = /Process (\d+) has ([\d.]+) GiB memory in use/.exec(card.failure?.summary ?? "");
      const listed = card.gpuState?.candidate?.processes ?? [];
      if (holder) {
        expect(listed.map((process) => process.pid)).toEqual([Number(holder[1])]);
        expect(((listed[0]?.usedMemoryMiB ?? 0) / 1024).toFixed(2)).toBe(holder[2]);
      } else {
        expect(listed).toEqual([]);
      }
    },
  );

  it("baseline-nccl-error agrees with its own log, and its candidate never started", async () => {
    const card = parseScorecardJson(await read("baseline-nccl-error.json"), "baseline-nccl-error");
    const log = toLogTail(await read("baseline-nccl-error.log"));
    expect(card.failure).toEqual({
      ...classifyFailure({
        role: "baseline",
        stage: "startup",
        exit: { exitCode: 1, signal: null, oomKilled: false },
        logLines: log,
        engine: engineFamily(card.engine),
      }),
      run: null,
    });
    expect(card.failure?.kind).toBe("nccl_error");
    expect(card.gpuState?.candidate).toBeNull();
    expect(card.prompts.every((prompt) => prompt.status === "excluded" && prompt.candidate === null)).toBe(true);
  });

  it("the demo card is what the demo round gives: the patch is faster, but two answers stop early", () => {
    const demo = examples.find((example) => example.name === "demo")?.card;
    expect(demo?.engine).toBe("sim-engine");
    expect(
      demo?.prompts
        .filter((prompt) => prompt.status === "below_tolerance")
        .map((prompt) => prompt.id)
        .sort(),
    ).toEqual(["story-lighthouse", "summarize-contract"]);
    expect(demo?.roundScore).toBeGreaterThan(1.4);
    expect(demo?.gate.passed).toBe(false);
  });

  it("the SGLang examples' hints name SGLang's flags, not vLLM's", () => {
    for (const { card } of examples.filter((example) => example.card.engine === "sglang" && example.card.failure?.kind === "cuda_oom")) {
      expect(card.failure?.hint).not.toMatch(/vLLM|--gpu-memory-utilization|--tensor-parallel-size|--enforce-eager|--max-model-len/);
    }
  });

  it("renders a card page from local files only: GitHub's stylesheet, Mermaid and the card's HTML", async () => {
    const html = renderCardHtml(await read("passing-round.md"));
    expect(html).toContain('<pre class="mermaid">');
    expect(html).toContain("<table>");
    expect(html).toContain("<details><summary>Per-prompt results");
    expect(html.match(/(?:src|href)="([^"]+)"/g)?.every((attribute) => attribute.includes("file://"))).toBe(true);
  });
});
