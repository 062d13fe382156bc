import { literalForCodeSpans } from "../safe-text/render-inline-code.js";
import {
  SAME_MEMORY_MIB,
  describeHolders,
  describeMemoryInUse,
  describeUseOn,
  formatGiB,
  largestIncreaseMiB,
  readGpuSnapshot,
} from "./read-gpu-snapshot.js";
import type { Scorecard } from "./scorecard-schema.js";

/**
 * The runner, not the patch, made the round fail: the candidate ran out of GPU memory that other
 * work held when it started and did not hold when the baseline started. Plain text: callers escape.
 */
export interface RunnerFault {
  /** "11.0 of 31.8 GiB were in use on GPU 3", before the candidate started. */
  memoryInUse: string;
  /** "0.0 GiB on GPU 3", the same GPU before the baseline started; null when that was not read. */
  beforeBaseline: string | null;
  /** The GPU that held the most; null when nvidia-smi reported no memory figures. */
  gpu: number | null;
  /** GiB held on that GPU, for a short headline ("11.0 GiB"). */
  heldGiB: string | null;
  /** What held it ("python3, pid 48211, 11.0 GiB"); null when nvidia-smi listed no process, as in many containers. */
  holders: string | null;
  /** The largest holder alone, and how many more there were, for a headline ("python3, pid 48211, 11.0 GiB; 1 more"). */
  mainHolder: string | null;
  /** The runner's name, when the card has it. */
  runner: string | null;
}

/**
 * The one place that decides whether a failed round is the runner's fault. The card's headline, the
 * check run and the action's outcome all say "no verdict" when it is, and tell the maintainers what to
 * free; the author is told there is nothing to change in the patch. Null for every other card.
 */
export function findRunnerFault(card: Scorecard): RunnerFault | null {
  const failure = card.failure;
  if (!failure || failure.kind !== "cuda_oom" || failure.engine !== "candidate") return null;
  const candidate = card.gpuState?.candidate ?? null;
  const baseline = card.gpuState?.baseline ?? null;
  const now = readGpuSnapshot(candidate);
  const before = readGpuSnapshot(baseline);
  if (!candidate || !now.readable || !now.held) return null;
  // Memory held before both starts is a shared runner the baseline coped with: then the patch needs more.
  const increase = baseline && before.readable ? largestIncreaseMiB(candidate, baseline) : null;
  if (before.readable && before.held && (increase === null || increase < SAME_MEMORY_MIB)) return null;
  const busiest = now.busiest;
  return {
    memoryInUse: describeMemoryInUse(now),
    beforeBaseline: before.readable && baseline && busiest ? describeUseOn(baseline, busiest.index) : null,
    gpu: busiest?.index ?? null,
    heldGiB: busiest ? formatGiB(busiest.usedMiB) : null,
    holders: now.processes.length === 0 ? null : describeHolders(now.processes),
    mainHolder: now.processes.length === 0 ? null : describeHolders(now.processes, 1),
    runner: card.provenance.runner,
  };
}

/**
 * What the maintainers should do, in one sentence with Markdown code spans for the commands and the
 * runner's own words kept literal (render it with renderWithCodeSpans).
 */
export function describeRunnerFix(fault: RunnerFault): string {
  const gpu = fault.gpu === null ? "the runner's GPUs" : `GPU ${fault.gpu}`;
  const where = fault.runner ? ` on ${literalForCodeSpans(fault.runner)}` : "";
  const what = fault.holders
    ? `stop what holds it (${literalForCodeSpans(fault.holders)})`
    : "find what holds it with `nvidia-smi` on the runner (it listed no process, as in many containers) and stop it";
  return `Free ${gpu}${where}: ${what}, then comment \`/rescore\`.`;
}
