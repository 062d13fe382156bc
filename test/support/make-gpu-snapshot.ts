import type { GpuSnapshot } from "../../src/vocabulary/gpu-state-schema.js";

/** nvidia-smi's view of one H100 with this much memory in use and these processes holding it. */
export function h100Snapshot(usedMiB: number, processes: GpuSnapshot["processes"] = []): GpuSnapshot {
  return {
    takenAt: "2026-11-29T11:50:00.000Z",
    error: null,
    driverVersion: "570.124.06",
    cudaVersion: "12.8",
    gpus: [{ index: 0, uuid: "GPU-0", name: "NVIDIA H100 80GB HBM3", memoryTotalMiB: 81559, memoryUsedMiB: usedMiB }],
    processes,
    processesError: null,
  };
}

/** An idle H100: the driver's few MiB. */
export const IDLE_GPU = h100Snapshot(4);
/** An engine left over from another job holds 22.5 GiB. */
export const LEFTOVER_GPU = h100Snapshot(23046, [{ gpuUuid: "GPU-0", pid: 4242, name: "python3", usedMemoryMiB: 23040 }]);
/** The same GPU with no process listed, as in many containers. */
export const UNLISTED_BUSY_GPU = h100Snapshot(23046);
