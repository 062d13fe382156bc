import { describe, expect, it } from "vitest";
import { describeGpus } from "../../src/scorecard/read-gpu-snapshot.js";
import { h100Snapshot } from "../support/make-gpu-snapshot.js";

describe("describeGpus", () => {
  it(
    "counts GPUs of one kind and size, keeps other kinds apart in the order read, and names a GPU whose memory was not read by name " +
      "alone",
    () => {
      const snapshot = h100Snapshot(4);
      snapshot.gpus = [
        { index: 0, uuid: "GPU-0", name: "NVIDIA H200", memoryTotalMiB: 143771, memoryUsedMiB: 4 },
        { index: 1, uuid: "GPU-1", name: "NVIDIA H200", memoryTotalMiB: 143771, memoryUsedMiB: 4 },
        { index: 2, uuid: "GPU-2", name: "NVIDIA L4", memoryTotalMiB: null, memoryUsedMiB: null },
      ];
      expect(describeGpus(snapshot)).toBe("2× NVIDIA H200, 143771 MiB, NVIDIA L4");
    },
  );

  it("is null when no GPU was read, so the card says nothing rather than an empty name", () => {
    const snapshot = h100Snapshot(4);
    snapshot.gpus = [];
    expect(describeGpus(snapshot)).toBeNull();
    expect(describeGpus(null)).toBeNull();
  });
});
