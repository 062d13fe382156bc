import { markdownTable } from "markdown-table";
import type { GpuSnapshot } from "../../vocabulary/gpu-state-schema.js";
import { describeGpus } from "../read-gpu-snapshot.js";
import { describeHolders, describeMemoryInUse, formatGiB, readGpuSnapshot } from "../read-gpu-snapshot.js";
import { literalForCodeSpans, renderWithCodeSpans } from "../../safe-text/render-inline-code.js";
import { escapeInline as escapeCell } from "../../safe-text/escape-engine-text.js";
import type { Scorecard } from "../scorecard-schema.js";

function memoryInUse(snapshot: GpuSnapshot): string {
  return snapshot.gpus
    .map((gpu) => {
      const used = gpu.memoryUsedMiB === null ? "?" : formatGiB(gpu.memoryUsedMiB).replace(" GiB", "");
      const total = gpu.memoryTotalMiB === null ? "?" : formatGiB(gpu.memoryTotalMiB);
      return `GPU ${gpu.index}: ${used} / ${total}`;
    })
    .join("; ");
}

function column(snapshot: GpuSnapshot | null): string[] {
  if (!snapshot) return ["not recorded (the engine did not start)", "—", "—", "—"];
  if (snapshot.error !== null || snapshot.gpus.length === 0)
    return [`not read: ${escapeCell(snapshot.error ?? "nvidia-smi listed no GPU")}`, "—", "—", "—"];
  const processes =
    snapshot.processesError !== null
      ? `not listed: ${snapshot.processesError}`
      : snapshot.processes.length === 0
        ? "none listed"
        : describeHolders(snapshot.processes, 5);
  return [
    escapeCell(describeGpus(snapshot) ?? "—"),
    `${escapeCell(snapshot.driverVersion ?? "—")} / ${escapeCell(snapshot.cudaVersion ?? "—")}`,
    escapeCell(memoryInUse(snapshot)),
    escapeCell(processes),
  ];
}

/** nvidia-smi's view before each engine started, side by side. */
export function renderGpuStateTable(card: Scorecard): string {
  const state = card.gpuState;
  if (!state) return "";
  const baseline = column(state.baseline);
  const candidate = column(state.candidate);
  const labels = ["GPUs", "Driver / CUDA", "Memory in use", "Processes holding GPU memory"];
  const table = markdownTable(
    [
      ["GPU state", "Before the baseline started", "Before the candidate started"],
      ...labels.map((label, index) => [label, baseline[index] ?? "—", candidate[index] ?? "—"]),
      [
        "Command and environment",
        "the round config's",
        state.sameLaunch ? "the same as the baseline's" : "different from the baseline's (candidate.command or candidate.env)",
      ],
    ],
    { alignDelimiters: false, align: ["l", "l", "l"] },
  );
  return table;
}

/**
 * A warning when something else held GPU memory before an engine started: its timings may include
 * that other work. CUDA out-of-memory cards say this in their own explanation instead.
 */
export function renderGpuBusyWarning(card: Scorecard): string {
  const state = card.gpuState;
  if (!state || card.failure?.kind === "cuda_oom") return "";
  const warnings: string[] = [];
  for (const role of ["baseline", "candidate"] as const) {
    const reading = readGpuSnapshot(state[role]);
    if (!reading.readable || !reading.held) continue;
    const holders = reading.processes.length === 0 ? "" : ` (held by ${literalForCodeSpans(describeHolders(reading.processes))})`;
    warnings.push(`before the ${role} started, ${describeMemoryInUse(reading)}${holders}`);
  }
  if (warnings.length === 0) return "";
  const text =
    `The GPU was not idle: ${warnings.join("; ")}. The timings may include that other work; a rerun on an idle runner (\`/rescore\`) ` +
    `settles it.`;
  return `> [!WARNING]\n> ${renderWithCodeSpans(text, escapeCell)}`;
}
