import type { GpuSnapshot } from "../../vocabulary/gpu-state-schema.js";
import { describeRunnerFix, findRunnerFault } from "../find-runner-fault.js";
import { describeHolders, describeMemoryInUse, formatGiB, readGpuSnapshot } from "../read-gpu-snapshot.js";
import { literalForCodeSpans } from "../../safe-text/render-inline-code.js";
import type { Scorecard } from "../scorecard-schema.js";

/** Who has to act on a CUDA out-of-memory, as the card puts it first. */
export type OomVerdict =
  "runner_busy" | "patch_needs_memory" | "patch_needs_memory_shared_runner" | "flags_differ" | "gpu_state_unknown" | "baseline_oom";

export interface OomExplanation {
  verdict: OomVerdict;
  /** Plain text: the caller escapes it for the card. */
  lead: string;
  /**
   * Plain text with Markdown code spans for commands and config keys, the runner's own words (process
   * names, nvidia-smi's error) kept literal with literalForCodeSpans; render with renderWithCodeSpans.
   */
  text: string;
}

function gpuStateUnknownReason(snapshot: GpuSnapshot | null): string {
  if (!snapshot) return "the card does not record it";
  return snapshot.error === null ? "nvidia-smi listed no GPU" : literalForCodeSpans(snapshot.error);
}

/** "(held by python3, pid 4242, 22.0 GiB)", or nothing when nvidia-smi listed no process (as in many containers). */
function heldBy(processes: GpuSnapshot["processes"]): string {
  // Process names are the runner's: their backticks must not open code spans in the text.
  return processes.length === 0 ? "" : ` (held by ${literalForCodeSpans(describeHolders(processes))})`;
}

/**
 * What a CUDA out-of-memory means for the pull request, from what nvidia-smi showed before each
 * engine started: the runner's fault when memory was already held before the failing start (and not
 * before the baseline's), the patch's when the baseline started with the same flags on a GPU as free.
 * Null for any other failure.
 */
export function explainCudaOom(card: Scorecard): OomExplanation | null {
  const failure = card.failure;
  if (!failure || failure.kind !== "cuda_oom") return null;
  const state = card.gpuState;
  const when = failure.stage === "benchmark" ? "served the same prompts at the same pace" : "started";

  if (failure.engine === "baseline") {
    const reading = readGpuSnapshot(state?.baseline ?? null);
    const held =
      reading.readable && reading.held
        ? ` Before it started, ${describeMemoryInUse(reading)}${heldBy(reading.processes)}: free the runner's GPU first.`
        : reading.readable
          ? ` The GPU was idle before it started (${describeMemoryInUse(reading)}), so the round's memory settings do not fit this GPU.`
          : ` speedgate could not read the GPU state before it started (${gpuStateUnknownReason(state?.baseline ?? null)}).`;
    return {
      verdict: "baseline_oom",
      lead: "Not the patch:",
      text: `the unpatched baseline itself ran out of GPU memory, so the round measured nothing about the patch.${held}`,
    };
  }

  const fault = findRunnerFault(card);
  if (fault) {
    const against = fault.beforeBaseline ? `, against ${fault.beforeBaseline} before the baseline started` : "";
    return {
      verdict: "runner_busy",
      lead: "For the runner's maintainers:",
      text:
        `before the candidate started, ${fault.memoryInUse}${against}: ` +
        `another job or a leftover engine held the memory the candidate needed, so this round says nothing about the patch. ` +
        `${describeRunnerFix(fault)} Nothing to change in the patch.`,
    };
  }

  const candidate = state?.candidate ?? null;
  const now = readGpuSnapshot(candidate);
  const before = readGpuSnapshot(state?.baseline ?? null);

  if (state && !state.sameLaunch) {
    const gpu = now.readable ? ` Before the candidate started, ${describeMemoryInUse(now)}.` : "";
    return {
      verdict: "flags_differ",
      lead: "For the author of the pull request:",
      text:
        "the candidate was started with a different command or environment than the baseline (`candidate.command` or `candidate.env` " +
        "in the round config), " +
        `so the changed flags may be why it ran out of GPU memory and the baseline did not: compare them first.${gpu}`,
    };
  }

  const needsMore =
    "So the patch needs more GPU memory than the baseline at these settings: find what it allocates more of (a larger workspace or " +
    "buffer, " +
    "one per CUDA-graph batch size, memory kept across requests), or say in the pull request why the memory is worth it, so that the " +
    "maintainers can change the memory settings for both engines.";

  if (!now.readable) {
    return {
      verdict: "gpu_state_unknown",
      lead: "For the author of the pull request:",
      text:
        `the baseline ${when} with the same command and flags on this runner and did not run out of memory. ${needsMore} ` +
        `speedgate could not read the GPU state before the candidate started (${gpuStateUnknownReason(candidate)}), so memory held ` +
        `by another process cannot be ruled out.`,
    };
  }

  if (now.held) {
    return {
      verdict: "patch_needs_memory_shared_runner",
      lead: "For the author of the pull request:",
      text:
        `the baseline ${when} with the same command and flags on this runner with as much GPU memory already held by other work ` +
        `(before the candidate started, ${describeMemoryInUse(now)}${heldBy(now.processes)}) and did not run out of memory. ${needsMore} ` +
        `The runner is not idle, though: freeing its GPU would give both engines ${formatGiB(now.busiest?.usedMiB ?? 0)} more headroom.`,
    };
  }

  const same = before.readable ? "as idle before the candidate started as before the baseline" : "idle before the candidate started";
  return {
    verdict: "patch_needs_memory",
    lead: "For the author of the pull request:",
    text:
      `the baseline ${when} with the same command and flags on this runner and did not run out of memory, and the GPU was ${same} (at ` +
      `most ${formatGiB(now.busiest?.usedMiB ?? 0)} in use on any GPU, no process listed). ${needsMore}`,
  };
}
