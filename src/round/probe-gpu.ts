import { execFile } from "node:child_process";

/** "NVIDIA H100 80GB HBM3, 81559 MiB" per GPU, joined; null when there is no nvidia-smi or it fails. */
export async function probeGpu(timeoutMs = 5_000): Promise<string | null> {
  return await new Promise((resolve) => {
    execFile("nvidia-smi", ["--query-gpu=name,memory.total", "--format=csv,noheader"], { timeout: timeoutMs }, (error, stdout) => {
      if (error) return resolve(null);
      const gpus = stdout.split("\n").map((line) => line.trim()).filter((line) => line !== "");
      if (gpus.length === 0) return resolve(null);
      const counts = new Map<string, number>();
      for (const gpu of gpus) counts.set(gpu, (counts.get(gpu) ?? 0) + 1);
      resolve([...counts].map(([gpu, count]) => (count > 1 ? `${count}× ${gpu}` : gpu)).join(", ").slice(0, 512));
    });
  });
}
