import type { GpuSnapshot } from "../vocabulary/gpu-state-schema.js";

/*
 * What a GPU snapshot means for a reader: whether anything else held GPU memory before an engine
 * started. An idle GPU still shows a little memory in use (the driver, a display, persistence
 * mode): under a gibibyte, or 5% of the card, counts as idle.
 */

export const IDLE_MEMORY_MIB = 1_024;
const IDLE_FRACTION = 0.05;
/** Two starts whose memory in use differs by less than this saw the same GPU. */
export const SAME_MEMORY_MIB = 1_024;

export interface GpuReading {
  /** False when nvidia-smi could not be read: nothing is known. */
  readable: boolean;
  error: string | null;
  /** The GPU with the most memory in use. */
  busiest: { index: number; usedMiB: number; totalMiB: number | null } | null;
  /** Another process held GPU memory: one was listed, or a GPU was well above idle. */
  held: boolean;
  processes: GpuSnapshot["processes"];
}

function isAboveIdle(usedMiB: number, totalMiB: number | null): boolean {
  return usedMiB >= Math.max(IDLE_MEMORY_MIB, (totalMiB ?? 0) * IDLE_FRACTION);
}

export function readGpuSnapshot(snapshot: GpuSnapshot | null): GpuReading {
  if (!snapshot || snapshot.error !== null || snapshot.gpus.length === 0) {
    return { readable: false, error: snapshot?.error ?? null, busiest: null, held: false, processes: [] };
  }
  let busiest: GpuReading["busiest"] = null;
  for (const gpu of snapshot.gpus) {
    if (gpu.memoryUsedMiB === null) continue;
    if (!busiest || gpu.memoryUsedMiB > busiest.usedMiB)
      busiest = { index: gpu.index, usedMiB: gpu.memoryUsedMiB, totalMiB: gpu.memoryTotalMiB };
  }
  const aboveIdle = snapshot.gpus.some((gpu) => gpu.memoryUsedMiB !== null && isAboveIdle(gpu.memoryUsedMiB, gpu.memoryTotalMiB));
  return { readable: true, error: null, busiest, held: aboveIdle || snapshot.processes.length > 0, processes: snapshot.processes };
}

/** Memory in use on a GPU before one start minus before another, per GPU index; the largest difference. */
export function largestIncreaseMiB(later: GpuSnapshot, earlier: GpuSnapshot): number {
  let largest = 0;
  for (const gpu of later.gpus) {
    const before = earlier.gpus.find((candidate) => candidate.index === gpu.index);
    if (gpu.memoryUsedMiB === null || before?.memoryUsedMiB === null || before === undefined) continue;
    largest = Math.max(largest, gpu.memoryUsedMiB - before.memoryUsedMiB);
  }
  return largest;
}

export function formatGiB(mib: number): string {
  const gib = mib / 1024;
  return `${gib >= 100 ? Math.round(gib) : gib.toFixed(1)} GiB`;
}

/** "22.5 of 31.8 GiB were in use on GPU 3" for the busiest GPU (plain text: the caller escapes). */
export function describeMemoryInUse(reading: GpuReading): string {
  const busiest = reading.busiest;
  if (!busiest) return "nvidia-smi did not report the memory in use";
  const total = busiest.totalMiB === null ? "" : ` of ${formatGiB(busiest.totalMiB).replace(" GiB", "")}`;
  return `${formatGiB(busiest.usedMiB).replace(" GiB", "")}${total} GiB were in use on GPU ${busiest.index}`;
}

/** "0.0 GiB on GPU 3": the same GPU in another snapshot, for a before-and-after. */
export function describeUseOn(snapshot: GpuSnapshot, index: number): string {
  const gpu = snapshot.gpus.find((candidate) => candidate.index === index);
  return gpu?.memoryUsedMiB === null || gpu === undefined
    ? `no reading for GPU ${index}`
    : `${formatGiB(gpu.memoryUsedMiB)} on GPU ${index}`;
}

/** "python3, pid 4242, 22.0 GiB; …" for the largest holders, plain text. */
export function describeHolders(processes: GpuSnapshot["processes"], max = 3): string {
  if (processes.length === 0) return "no process listed";
  const shown = processes.slice(0, max).map((process) => {
    const name = process.name.length > 60 ? `…${process.name.slice(-59)}` : process.name;
    const pid = process.pid === null ? "" : `, pid ${process.pid}`;
    const used = process.usedMemoryMiB === null ? "" : `, ${formatGiB(process.usedMemoryMiB)}`;
    return `${name}${pid}${used}`;
  });
  const more = processes.length > max ? `; ${processes.length - max} more` : "";
  return `${shown.join("; ")}${more}`;
}

/** "NVIDIA H100 80GB HBM3, 81559 MiB" per kind of GPU, counted; null when nothing could be read. */
export function describeGpus(snapshot: GpuSnapshot | null): string | null {
  if (!snapshot || snapshot.gpus.length === 0) return null;
  const counts = new Map<string, number>();
  for (const gpu of snapshot.gpus) {
    const key = gpu.memoryTotalMiB === null ? gpu.name : `${gpu.name}, ${gpu.memoryTotalMiB} MiB`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts]
    .map(([gpu, count]) => (count > 1 ? `${count}× ${gpu}` : gpu))
    .join(", ")
    .slice(0, 512);
}
