import { z } from "zod";

/*
 * What nvidia-smi showed just before an engine started. It is on the card so that a CUDA
 * out-of-memory can be told apart from a runner whose GPU was already busy. Process names come from
 * whatever ran on the runner: they are untrusted text and rendered through the card's escaping.
 */

const text = (max: number) => z.string().max(max);
const mib = z.number().int().min(0).max(100_000_000);

export const MAX_GPU_PROCESSES = 256;

export const gpuSnapshotSchema = z.object({
  takenAt: text(64),
  /** Why nothing could be read (no nvidia-smi, a driver error, a timeout); null when it was read. */
  error: text(1_000).nullable(),
  driverVersion: text(64).nullable(),
  cudaVersion: text(64).nullable(),
  gpus: z
    .array(
      z.object({
        index: z.number().int().min(0).max(1_024),
        uuid: text(128).nullable(),
        name: text(256),
        memoryTotalMiB: mib.nullable(),
        memoryUsedMiB: mib.nullable(),
      }),
    )
    .max(64),
  /** Compute processes holding GPU memory, largest first. In a container nvidia-smi may list none even when memory is used. */
  processes: z
    .array(
      z.object({
        gpuUuid: text(128).nullable(),
        pid: z.number().int().min(0).nullable(),
        name: text(512),
        usedMemoryMiB: mib.nullable(),
      }),
    )
    .max(MAX_GPU_PROCESSES),
  processesError: text(1_000).nullable(),
});

export const gpuStateSchema = z.object({
  /** True when the candidate started with the baseline's command and environment: the patch was the only difference. */
  sameLaunch: z.boolean(),
  baseline: gpuSnapshotSchema.nullable(),
  candidate: gpuSnapshotSchema.nullable(),
});

export type GpuSnapshot = z.infer<typeof gpuSnapshotSchema>;
export type GpuState = z.infer<typeof gpuStateSchema>;
