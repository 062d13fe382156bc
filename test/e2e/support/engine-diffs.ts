import { readFileSync } from "node:fs";

/*
 * Pull request diffs as GitHub's compare API returns them (`diff --git` headers, index lines), against
 * the reference engine's "source tree" in the Docker test image: its profile.json
 * (BASELINE_PROFILE written with two-space indentation). Each one changes the engine the way a real
 * pull request would: faster, slower, or broken at startup.
 */

const HEADER = ["diff --git a/profile.json b/profile.json", "index 5d1f0c2..8e4b7a9 100644", "--- a/profile.json", "+++ b/profile.json"];

function itlDiff(itlMs: number): string {
  return [
    ...HEADER,
    "@@ -3,5 +3,5 @@",
    '   "defaults": {',
    '     "ttftMs": 30,',
    '-    "itlMs": 48,',
    `+    "itlMs": ${itlMs},`,
    '     "outputTokens": 12,',
    '     "reasoningTokens": 0,',
    "",
  ].join("\n");
}

/** Streams tokens twelve times faster (48 ms -> 4 ms between tokens): the gate passes, however loaded the runner. */
export const SPEEDUP_DIFF = itlDiff(4);

/** Twice as slow between tokens: the gate fails. */
export const SLOWDOWN_DIFF = itlDiff(96);

/** A real SGLang log: CUDA OOM while capturing the prefill CUDA graphs, then the scheduler's teardown. */
export const SGLANG_OOM_LOG_LINES = readFileSync(new URL("../../../harness/fixtures/sglang-cuda-graph-oom.log", import.meta.url), "utf8")
  .trimEnd()
  .split("\n");

/**
 * Makes the engine print that log and exit 1 at startup instead of serving, as a pull request
 * raising the memory fraction would on a GPU. The log arrives as a new file of the diff, so the
 * candidate image holds it only once the patch applied.
 */
export const CUDA_OOM_DIFF = [
  ...HEADER,
  "@@ -1,5 +1,6 @@",
  " {",
  '   "model": "sim-model",',
  '+  "faults": { "crashAtStart": { "logFile": "sglang-cuda-graph-oom.log", "exitCode": 1 } },',
  '   "defaults": {',
  '     "ttftMs": 30,',
  '     "itlMs": 48,',
  "diff --git a/sglang-cuda-graph-oom.log b/sglang-cuda-graph-oom.log",
  "new file mode 100644",
  "index 0000000..c0ffee1",
  "--- /dev/null",
  "+++ b/sglang-cuda-graph-oom.log",
  `@@ -0,0 +1,${SGLANG_OOM_LOG_LINES.length} @@`,
  ...SGLANG_OOM_LOG_LINES.map((line) => `+${line}`),
  "",
].join("\n");
