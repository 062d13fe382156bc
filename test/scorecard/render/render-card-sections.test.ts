import { describe, expect, it } from "vitest";
import { parseRoundConfig } from "../../../src/config/load-round-config.js";
import type { EngineFailure } from "../../../src/vocabulary/engine-failure.js";
import { importErrorHint } from "../../../src/failure/failure-hints.js";
import type { GpuSnapshot } from "../../../src/vocabulary/gpu-state-schema.js";
import { renderMarkdown } from "../../../src/scorecard/render/render-markdown.js";
import { findRenderedReferences } from "../../../harness/find-rendered-references.js";
import { type PromptPlan, makeCard, seedOomFailure, testConfig } from "../../../harness/make-card.js";
import { IDLE_GPU, LEFTOVER_GPU, h100Snapshot } from "../../support/make-gpu-snapshot.js";

const gpu = h100Snapshot;
const IDLE = IDLE_GPU;
const LEFTOVER = LEFTOVER_GPU;
const NO_NVIDIA_SMI: GpuSnapshot = {
  ...gpu(0),
  error: "nvidia-smi is not on the runner's PATH",
  driverVersion: null,
  cudaVersion: null,
  gpus: [],
};
const passing: PromptPlan[] = [{ speedup: 1.31 }, { speedup: 1.18 }, { speedup: 1.25 }, { speedup: 1.12 }, { speedup: 1.4 }];
const gate = (minRoundScore: number): typeof testConfig => ({
  ...testConfig,
  gate: { ...testConfig.gate, minRoundScore, use: "round-score" },
});

/** A folded section of the card, from its <details> to its </details>. */
function fold(markdown: string, summary: string): string {
  const start = markdown.indexOf(`<details><summary>${summary}`);
  expect(start, `the fold "${summary}" is on the card`).toBeGreaterThanOrEqual(0);
  return markdown.slice(start, markdown.indexOf("</details>", start) + "</details>".length);
}

/** What the card shows before its first fold: the headline, the facts line, and the verdict or the failure. */
function unfolded(markdown: string): string {
  return markdown.slice(0, markdown.indexOf("<details>"));
}

describe("the card: where the speed came from", () => {
  it("says whether prefill or decode changed, with TTFT, TPOT and ITL percentiles, rates and candidate ÷ baseline ratios", async () => {
    const decode = makeCard(passing);
    const markdown = renderMarkdown(decode);
    // The one-line lead is in the first screen's table; the table of every percentile is folded.
    expect(unfolded(markdown)).toContain(
      "| Speed | **First token:** 20% less time (median TTFT 120 → 96.0 ms) · **Decode:** 20% less time per token (median TPOT 20.0 " +
        "→ 16.0 ms) |",
    );
    const speed = fold(markdown, "Where the speed came from");
    expect(speed).toContain("| TTFT ms (first token, incl. queueing) | 120 / 120 / 120 | 96.0 / 105 / 107 | 0.80× / 0.87× / 0.89× |");
    expect(speed).toContain("| TPOT ms (decode) |");
    expect(speed).toContain("| ITL ms (decode) |");
    expect(speed).toContain("| Output tokens/s |");
    expect(speed).toContain("| Requests/s |");
    await expect(speed).toMatchFileSnapshot("__snapshots__/speed-section.md");
  });

  it("counts requests, not prompts, when the metrics pool several runs, and says when shards left some out", () => {
    const card = makeCard(passing);
    const metrics = card.metrics;
    if (!metrics) throw new Error("the test card has metrics");
    const threeRuns = { ...card, settings: { ...card.settings, runs: 3 }, metrics: { ...metrics, prompts: card.promptsScored * 3 } };
    const pooled = fold(renderMarkdown(threeRuns), "Where the speed came from");
    expect(pooled).toContain(
      `Over ${card.promptsScored * 3} requests to each engine, the scored prompts of all 3 runs, each request cut at k`,
    );
    const partial = { ...threeRuns, metrics: { ...metrics, prompts: card.promptsScored } };
    expect(fold(renderMarkdown(partial), "Where the speed came from")).toContain(
      `(${card.promptsScored} of ${card.promptsScored * 3}: the other shards' cards carried no metrics)`,
    );
  });

  it("says prefill is unchanged when only decode moved", () => {
    const card = makeCard([{ speedup: 1 }, { speedup: 1 }]);
    expect(renderMarkdown(card)).toContain(
      "| Speed | **First token:** unchanged (median TTFT 120 → 120 ms) · **Decode:** unchanged (median TPOT 20.0 → 20.0 ms) |",
    );
  });

  it("has no metrics table when nothing was scored", () => {
    const card = makeCard([{ candidateTokens: 10 }, { candidateError: "HTTP 500" }]);
    expect(card.metrics).toBeNull();
    expect(renderMarkdown(card)).not.toContain("Where the speed came from");
    expect(renderMarkdown(card)).not.toContain("| Speed |");
  });
});

describe("the card for a CUDA out-of-memory", () => {
  const oom = seedOomFailure();

  it(
    "tells the author first that the patch needs more memory when the GPU was as idle as for the baseline, then the maintainers' hint " +
      "with its troubleshooting link",
    async () => {
      const markdown = renderMarkdown(makeCard(passing, { failure: oom, gpuSnapshots: { baseline: IDLE, candidate: IDLE } }));
      // A card without a score leads with its failure: nothing but the headline and the facts line above it.
      const failure = unfolded(markdown);
      expect(failure).not.toContain("| Round score |");
      const author = failure.indexOf(
        "**For the author of the pull request:** the baseline started with the same command and flags on this runner",
      );
      const table = failure.indexOf("| Failure |");
      expect(author).toBeGreaterThan(0);
      expect(author).toBeLessThan(table);
      expect(failure).toContain("So the patch needs more GPU memory than the baseline at these settings");
      expect(failure).toContain("(at most 0.0 GiB in use on any GPU, no process listed)");
      expect(failure).toContain(
        "| What to try | Lower --mem-fraction-static (0.8, then 0.7), lower --cuda-graph-max-bs, or disable the prefill CUDA graph. " +
          "([troubleshooting: cuda_oom](https://github.com/speedgate-dev/speedgate/blob/v0.1.0/docs/troubleshooting/cuda_oom.md)) |",
      );
      await expect(failure).toMatchFileSnapshot("__snapshots__/cuda-oom-patch-needs-memory.md");
    },
  );

  it(
    "gives no verdict when memory was held before the candidate started and not before the baseline, and tells the maintainers what to " +
      "free",
    async () => {
      const markdown = renderMarkdown(makeCard(passing, { failure: oom, gpuSnapshots: { baseline: IDLE, candidate: LEFTOVER } }));
      expect(markdown).toContain(
        "\n## ⚠️ No verdict: the runner's GPU was busy, not the patch (GPU 0 was held by python3, pid 4242, 22.5 GiB, when the " +
          "candidate started)\n",
      );
      const failure = unfolded(markdown);
      expect(failure).toContain(
        "**For the runner's maintainers:** before the candidate started, 22.5 of 79.6 GiB were in use on GPU 0, against 0.0 GiB on GPU 0 " +
          "before the baseline started: another job or a leftover engine held the memory the candidate needed, so this round says " +
          "nothing about the patch.",
      );
      expect(failure).toContain(
        "Free GPU 0 on gpu-runner-3: stop what holds it (python3, pid 4242, 22.5 GiB), then comment `/rescore`. Nothing to change in " +
          "the patch.",
      );
      // The engine's own hint is for a failure that repeats on a free GPU.
      expect(failure).toContain("| If it fails on a free GPU | Lower --mem-fraction-static");
      expect(failure).not.toContain("For the author");
      expect(fold(markdown, "How the score was measured")).toContain(
        "| Gate | ⚠️ no verdict: no round score: candidate engine failed at startup",
      );
      expect(markdown).not.toContain("does not pass");
      await expect(failure).toMatchFileSnapshot("__snapshots__/cuda-oom-runner-busy.md");
      expect(markdown).toContain("| Memory in use | GPU 0: 0.0 / 79.6 GiB | GPU 0: 22.5 / 79.6 GiB |");
      // The OOM explanation already says it: no second warning above.
      expect(markdown).not.toContain("[!WARNING]");
    },
  );

  it("still says the patch needs memory when the same memory was held before both starts, and that the runner is not idle", () => {
    const markdown = renderMarkdown(makeCard(passing, { failure: oom, gpuSnapshots: { baseline: LEFTOVER, candidate: LEFTOVER } }));
    expect(markdown).toContain("with as much GPU memory already held by other work");
    expect(markdown).toContain("freeing its GPU would give both engines 22.5 GiB more headroom");
  });

  it("says it could not check the GPU when nvidia-smi was missing", () => {
    const markdown = renderMarkdown(
      makeCard(passing, { failure: oom, gpuSnapshots: { baseline: NO_NVIDIA_SMI, candidate: NO_NVIDIA_SMI } }),
    );
    expect(markdown).toContain(
      "speedgate could not read the GPU state before the candidate started (nvidia-smi is not on the runner's PATH), so memory held " +
        "by another process cannot be ruled out.",
    );
    expect(markdown).toContain(
      "| GPUs | not read: nvidia-smi is not on the runner's PATH | not read: nvidia-smi is not on the runner's PATH |",
    );
  });

  it("points at the changed flags when the candidate started with another command", () => {
    const config = parseRoundConfig({
      ...(JSON.parse(JSON.stringify(testConfig)) as object),
      baseline: { image: "lmsysorg/sglang:v0.5.5", command: ["python3", "-m", "sglang.launch_server", "--mem-fraction-static", "0.8"] },
      candidate: {
        patch: "./submission.patch",
        sourceDir: "/sgl-workspace/sglang",
        command: ["python3", "-m", "sglang.launch_server", "--mem-fraction-static", "0.95"],
      },
    });
    const markdown = renderMarkdown(makeCard(passing, { config, failure: oom, gpuSnapshots: { baseline: IDLE, candidate: IDLE } }));
    expect(markdown).toContain(
      "the candidate was started with a different command or environment than the baseline (`candidate.command` or `candidate.env` " +
        "in the round config)",
    );
  });

  it("says the baseline, not the patch, ran out of memory", () => {
    const failure: EngineFailure = { ...oom, engine: "baseline" };
    const markdown = renderMarkdown(makeCard(passing, { failure, gpuSnapshots: { baseline: LEFTOVER, candidate: null } }));
    expect(markdown).toContain("**Not the patch:** the unpatched baseline itself ran out of GPU memory");
    expect(markdown).toContain(
      "Before it started, 22.5 of 79.6 GiB were in use on GPU 0 (held by python3, pid 4242, 22.5 GiB): free the runner's GPU first.",
    );
  });

  it("names the troubleshooting page without a link when the card does not say where the docs are", () => {
    const markdown = renderMarkdown(makeCard(passing, { failure: oom, docsBaseUrl: null }));
    expect(markdown).toContain("(troubleshooting: `docs/troubleshooting/cuda_oom.md` in speedgate's repository)");
    expect(markdown).not.toContain("](docs/");
  });

  it("escapes process names from the runner: no HTML, no mentions, no table breaks", () => {
    const hostile = gpu(23046, [{ gpuUuid: "GPU-0", pid: 1, name: "@octocat <img src=x> | `x` <!-- hidden", usedMemoryMiB: 23040 }]);
    const markdown = renderMarkdown(makeCard(passing, { failure: oom, gpuSnapshots: { baseline: IDLE, candidate: hostile } }));
    expect(markdown).not.toContain("@octocat");
    expect(markdown).not.toContain("<img");
    expect(markdown).not.toContain("<!-- hidden");
    // In the GPU state table and in the OOM explanation alike: its backticks are characters, not code.
    expect(markdown).toContain("| @\u200boctocat &lt;img src=x&gt; \\| &#96;x&#96; &lt;!-- hidden, pid 1, 22.5 GiB |");
    expect(markdown).toContain("stop what holds it (@\u200boctocat &lt;img src=x&gt; \\| &#96;x&#96; &lt;!-- hidden, pid 1, 22.5 GiB)");
    // The headline names the holder too, escaped the same way.
    expect(markdown).toContain(
      "## ⚠️ No verdict: the runner's GPU was busy, not the patch (GPU 0 was held by @\u200boctocat &lt;img src=x&gt; \\| " +
        "&#96;x&#96; &lt;!-- hidden, pid 1, 22.5 GiB, when the candidate started)",
    );
    expect(findRenderedReferences(markdown)).toEqual([]);
  });
});

describe("hints as code", () => {
  it("renders the hint's backticked commands as code spans and keeps everything else escaped", () => {
    const failure: EngineFailure = {
      ...seedOomFailure(),
      kind: "port_in_use",
      label: "port already in use",
      hint: "Find it with `ss -ltnp | grep 30000`, then `kill <pid>`; ask @octocat. A lone ` stays.",
    };
    const markdown = renderMarkdown(makeCard(passing, { failure }));
    expect(markdown).toContain(
      "| What to try | Find it with `ss -ltnp \\| grep 30000`, then `kill <pid>`; ask @\u200boctocat. A lone &#96; stays. " +
        "([troubleshooting: port_in_use](https://github.com/speedgate-dev/speedgate/blob/v0.1.0/docs/troubleshooting/port_in_use.md)) |",
    );
    expect(markdown).not.toContain("&#96;ss -ltnp");
  });

  it("keeps the engine's own words in a hint literal: a traceback path with backticks opens no code span", () => {
    const failure: EngineFailure = {
      ...seedOomFailure(),
      kind: "import_error",
      label: "Python ImportError",
      hint: importErrorHint("/src/`@octocat`/x.py, line 3"),
    };
    const markdown = renderMarkdown(makeCard(passing, { failure }));
    expect(markdown).toContain(
      "| What to try | Look at /src/&#96;@\u200boctocat&#96;`/x.py`, line 3: the engine's Python code does not import",
    );
    expect(markdown).toContain('Run `python -c "import sglang"` (or `import vllm`)');
  });
});

describe("key/value tables", () => {
  it("have no empty header bar: the first pair is the header", () => {
    const markdown = renderMarkdown(makeCard(passing, { failure: seedOomFailure(), gpuSnapshots: { baseline: IDLE, candidate: IDLE } }));
    expect(markdown).not.toMatch(/^\| *\| *\|$/m);
    expect(markdown).toMatch(/\| Failure \| `cuda_oom`: [^\n]*\|\n\| :- \| :- \|/);
    expect(markdown).toContain("| Engine | sglang |\n| :- | :- |");
  });
});

describe("the score chart", () => {
  it(
    "draws lines at 1.0× and at the gate, numbering the prompts as the table does, and a prompt that was not scored apart from the " +
      "scored",
    async () => {
      const markdown = renderMarkdown(
        makeCard([{ speedup: 1.2 }, { baselineError: "HTTP 500" }, { speedup: 0.9 }, { candidateTokens: 10 }], { config: gate(1.1) }),
      );
      const chart = markdown.slice(markdown.indexOf("```mermaid"), markdown.indexOf("```\n", markdown.indexOf("```mermaid") + 3) + 3);
      // The excluded prompt 2 has no bar; the others keep their table numbers.
      expect(chart).toContain('  x-axis "prompt # (as in the table)" ["1", "3", "4"]');
      // The unscored prompt 4 is not a blue bar of 0: a red stub under the 0 line, its blue value far
      // under the axis (nothing drawn), and the scored prompts likewise have no red bar.
      expect(chart).toContain('  y-axis "speedup ×" -0.07 --> 1.32');
      expect(chart).toContain("  bar [1.2, 0.9, -3]");
      expect(chart).toContain("  bar [-3, -3, 0]");
      expect(chart).toContain('"plotColorPalette": "#0969da, #cf222e, #6e7781, #bf8700"');
      expect(chart).toContain("  line [1, 1, 1]");
      expect(chart).toContain("  line [1.1, 1.1, 1.1]");
      // The title is short enough never to be cut off; the caption says what the colours mean.
      expect(chart).toContain('  title "Score per prompt"');
      const caption = markdown.slice(markdown.indexOf("```\n\n<sub>", markdown.indexOf("```mermaid")) + 5).split("\n")[0];
      expect(caption).toBe(
        "<sub>Blue: each prompt's score (end-to-end speedup at equal length); red, under the 0 line: not scored, counts as 0. Grey " +
          "line: 1.00×; yellow line: the gate, 1.10×, which the round score must clear.</sub>",
      );
      await expect(chart).toMatchFileSnapshot("__snapshots__/chart-per-prompt.md");
    },
  );

  it("keeps the x axis readable past 20 prompts: 1 and every fifth are numbered, the rest distinct but blank", () => {
    const markdown = renderMarkdown(makeCard(Array.from({ length: 60 }, () => ({ speedup: 1.1 }))));
    const axis = /x-axis "prompt # \(as in the table\)" \[(.*)\]/.exec(markdown)?.[1] ?? "";
    const labels = JSON.parse(`[${axis}]`) as string[];
    expect(labels).toHaveLength(60);
    expect(new Set(labels).size).toBe(60);
    expect(labels.filter((label) => label.trim().replace(/\u200b/g, "") !== "")).toEqual([
      "1",
      "5",
      "10",
      "15",
      "20",
      "25",
      "30",
      "35",
      "40",
      "45",
      "50",
      "55",
      "60",
    ]);
  });

  it("puts a 0.24× prompt in its own bucket past 60 prompts, and colours buckets by the gate", async () => {
    const plans: PromptPlan[] = Array.from({ length: 70 }, (_, index) =>
      index === 3 ? { speedup: 0.24 } : index < 10 ? { candidateTokens: 10 } : { speedup: 1.12 },
    );
    const markdown = renderMarkdown(makeCard(plans, { config: gate(1.05) }));
    const chart = markdown.slice(markdown.indexOf("```mermaid"));
    expect(chart).toContain(
      '  x-axis "score × (0: no score)" ["0", "0–0.5", "0.5–0.8", "0.8–0.9", "0.9–1", "1–1.05", "1.05–1.1", "1.1–1.25", "1.25–1.5", ' +
        '"1.5–2", "≥2"]',
    );
    // An empty bucket draws nothing: its value is far under the axis (-1 still showed as a sliver).
    expect(chart).toContain("  bar [9, 1, -132, -132, -132, -132, -132, -132, -132, -132, -132]");
    expect(chart).toContain("  bar [-132, -132, -132, -132, -132, -132, -132, 60, -132, -132, -132]");
    expect(chart).toContain('  title "Prompts by score"');
    expect(chart).toContain(
      "<sub>70 prompts by score. Red: under the gate 1.05× (the 0 bucket: not scored, counts as 0); green: at or above it.</sub>",
    );
    await expect(chart.slice(0, chart.indexOf("```\n", 3) + 3)).toMatchFileSnapshot("__snapshots__/chart-histogram.md");
  });
});

describe("the GPU state", () => {
  it("warns on a scored card when another process held GPU memory before an engine started", () => {
    const markdown = renderMarkdown(makeCard(passing, { gpuSnapshots: { baseline: IDLE, candidate: LEFTOVER } }));
    expect(markdown).toContain(
      "> [!WARNING]\n> The GPU was not idle: before the candidate started, 22.5 of 79.6 GiB were in use on GPU 0 (held by python3, " +
        "pid 4242, 22.5 GiB). The timings may include that other work; a rerun on an idle runner (`/rescore`) settles it.",
    );
    expect(renderMarkdown(makeCard(passing, { gpuSnapshots: { baseline: IDLE, candidate: IDLE } }))).not.toContain("[!WARNING]");
  });
});

describe("the card for an engine that stopped on its own assertion mid-benchmark", () => {
  const assertion: EngineFailure = {
    engine: "candidate",
    stage: "benchmark",
    kind: "assertion_failed",
    label: "assertion failed (GGML_ASSERT)",
    summary: "/src/llama.cpp/src/llama-context.cpp:1722: GGML_ASSERT(n_tokens_all <= cparams.n_batch) failed",
    hint: "llama-server stopped on its own GGML_ASSERT at src/llama-context.cpp:1722: an invariant there no longer holds with the patch.",
    exitCode: null,
    signal: "SIGABRT",
    logTail: [
      "/src/llama.cpp/src/llama-context.cpp:1722: GGML_ASSERT(n_tokens_all <= cparams.n_batch) failed",
      "[Inferior 1 (process 8) detached]",
    ],
    frames: ["#3 llama_context::decode(llama_batch const&)", "#4 llama_decode"],
    prompt: { number: 3, id: "p3" },
  };

  it("heads with the prompt it aborted during, shows the assertion as its error and the engine's frames, one a line", () => {
    const markdown = renderMarkdown(makeCard(passing, { failure: assertion }));
    expect(markdown).toContain("Candidate engine aborted during prompt 3 of the benchmark");
    expect(markdown).toContain(
      "| Failure | `assertion_failed`: assertion failed (GGML_ASSERT); candidate engine at benchmark, prompt 3 (p3), signal SIGABRT |",
    );
    expect(markdown).toContain(
      "| Error | `/src/llama.cpp/src/llama-context.cpp:1722`: GGML_ASSERT(n_tokens_all &lt;= cparams.n_batch) failed |",
    );
    expect(markdown).toContain("candidate engine failed at benchmark, during prompt 3 (assertion failed (GGML_ASSERT))");
    expect(markdown).toContain("| Frames | `#3 llama_context::decode(llama_batch const&)`<br>`#4 llama_decode` |");
    expect(markdown).not.toMatch(/\| Error \| \[Inferior/);
  });
});
