import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { gpuSnapshotSchema } from "../../src/vocabulary/gpu-state-schema.js";
import { probeGpuState } from "../../src/round/probe-gpu.js";
import { describeGpus } from "../../src/scorecard/read-gpu-snapshot.js";
import { BUSY_H100, type FakeNvidiaSmi, IDLE_H100, LEFTOVER_ENGINE, installFakeNvidiaSmi, withPath } from "../support/fake-nvidia-smi.js";

describe("probeGpuState with an nvidia-smi stand-in on PATH", () => {
  let fake: FakeNvidiaSmi | null = null;
  let restore: () => void = () => undefined;
  afterEach(async () => {
    restore();
    await fake?.remove();
    fake = null;
  });

  async function install(...states: Parameters<typeof installFakeNvidiaSmi>[0]): Promise<void> {
    fake = await installFakeNvidiaSmi(states);
    restore = withPath(fake.path);
  }

  it("reads each GPU's name and memory, the driver and CUDA versions, and the processes holding memory, largest first", async () => {
    await install({
      gpus: [...BUSY_H100, "1, [N/A], 81559, [N/A], 570.124.06, 12.8, NVIDIA H100 80GB HBM3"],
      apps: ["GPU-0f6c1d2e-aaaa-bbbb-cccc-000000000000, 977, 512, /usr/bin/Xorg", ...LEFTOVER_ENGINE],
    });
    const snapshot = await probeGpuState({ now: () => new Date("2026-01-01T00:00:00Z") });
    expect(snapshot).toEqual({
      takenAt: "2026-01-01T00:00:00.000Z",
      error: null,
      driverVersion: "570.124.06",
      cudaVersion: "12.8",
      gpus: [
        {
          index: 0,
          uuid: "GPU-0f6c1d2e-aaaa-bbbb-cccc-000000000000",
          name: "NVIDIA H100 80GB HBM3",
          memoryTotalMiB: 81559,
          memoryUsedMiB: 23046,
        },
        { index: 1, uuid: null, name: "NVIDIA H100 80GB HBM3", memoryTotalMiB: 81559, memoryUsedMiB: null },
      ],
      processes: [
        // A process name with a comma stays whole.
        {
          gpuUuid: "GPU-0f6c1d2e-aaaa-bbbb-cccc-000000000000",
          pid: 4242,
          name: "python3 -m sglang.launch_server, tp0",
          usedMemoryMiB: 23040,
        },
        { gpuUuid: "GPU-0f6c1d2e-aaaa-bbbb-cccc-000000000000", pid: 977, name: "/usr/bin/Xorg", usedMemoryMiB: 512 },
      ],
      processesError: null,
    });
    expect(gpuSnapshotSchema.parse(snapshot)).toEqual(snapshot);
    expect(describeGpus(snapshot)).toBe("2× NVIDIA H100 80GB HBM3, 81559 MiB");
  });

  it("says so when nvidia-smi is not on PATH", async () => {
    const empty = await mkdtemp(join(tmpdir(), "speedgate-empty-path-"));
    restore = withPath(empty);
    try {
      const snapshot = await probeGpuState();
      expect(snapshot.error).toBe("nvidia-smi is not on the runner's PATH");
      expect(snapshot.gpus).toEqual([]);
      expect(describeGpus(snapshot)).toBeNull();
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  it("keeps nvidia-smi's own words when it fails, as it does when the driver is gone", async () => {
    await install({
      exitCode: 9,
      message:
        "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is " +
        "installed and running.",
    });
    const snapshot = await probeGpuState();
    expect(snapshot.error).toBe(
      "nvidia-smi exited with code 9: NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that " +
        "the latest NVIDIA driver is installed and running.",
    );
    expect(snapshot.gpus).toEqual([]);
  });

  it("gives up on a hanging nvidia-smi after its timeout instead of holding the round", async () => {
    await install({ hang: true });
    const snapshot = await probeGpuState({ timeoutMs: 300 });
    expect(snapshot.error).toBe("nvidia-smi did not answer within 0.3 s");
  });

  it("reads the CUDA version from the banner when the driver predates the cuda_version field", async () => {
    await install({ legacyDriver: true, gpus: IDLE_H100.map((row) => row.replace("570.124.06", "470.82.01")) });
    const snapshot = await probeGpuState();
    expect(snapshot).toMatchObject({ error: null, driverVersion: "470.82.01", cudaVersion: "11.4", gpus: [{ memoryUsedMiB: 4 }] });
  });

  it("keeps the GPUs when only the process list fails", async () => {
    await install({ gpus: BUSY_H100, appsExitCode: 3 });
    const snapshot = await probeGpuState();
    expect(snapshot.error).toBeNull();
    expect(snapshot.gpus).toHaveLength(1);
    expect(snapshot.processes).toEqual([]);
    expect(snapshot.processesError).toBe("nvidia-smi exited with code 3: Unable to query compute apps");
  });

  it("says so when nvidia-smi lists no GPU", async () => {
    await install({ gpus: [] });
    expect((await probeGpuState()).error).toBe("nvidia-smi listed no GPU");
  });
});
