import type { EngineRole } from "../vocabulary/engine-failure.js";
import type { GpuSnapshot } from "../vocabulary/gpu-state-schema.js";
import { probeGpuState } from "./probe-gpu.js";

export interface GpuStateRecorder {
  /** Call where an engine is about to start: takes nvidia-smi's view of the GPUs for that role. */
  beforeStart(role: EngineRole): Promise<void>;
  /** The latest snapshot per role: the one before the start whose outcome the card reports. */
  snapshots(): { baseline: GpuSnapshot | null; candidate: GpuSnapshot | null };
}

/**
 * Keeps what the GPUs looked like before each engine started, however many times a round starts
 * each engine, so a CUDA out-of-memory can be compared with the baseline's start on the same runner.
 */
export function createGpuStateRecorder(probe: () => Promise<GpuSnapshot> = () => probeGpuState()): GpuStateRecorder {
  const taken = new Map<EngineRole, GpuSnapshot>();
  return {
    async beforeStart(role) {
      taken.set(role, await probe());
    },
    snapshots() {
      return { baseline: taken.get("baseline") ?? null, candidate: taken.get("candidate") ?? null };
    },
  };
}
