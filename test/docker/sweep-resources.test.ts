import { spawnSync } from "node:child_process";
import { hostname } from "node:os";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { LABEL_CREATED, LABEL_HOST, LABEL_PID, LABEL_PID_START, makeResourceLabels } from "../../src/docker/resource-labels.js";
import { readProcessStartTime } from "../../src/read-process-start-time.js";
import { isRunGone } from "../../src/docker/sweep-resources.js";
import { createRecordingLogger } from "../../src/logger.js";
import { captureStream } from "../support/capture-stream.js";

const HOUR = 3_600_000;

describe("isRunGone", () => {
  const now = Date.parse("2026-01-02T00:00:00Z");

  it("keeps resources of a live process on this host, whatever their age", () => {
    const labels = { ...makeResourceLabels("r1", "baseline"), [LABEL_CREATED]: "2020-01-01T00:00:00Z" };
    expect(isRunGone(labels, now, HOUR)).toBe(false);
  });

  it("sweeps resources whose creating process on this host has exited", () => {
    const finished = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
    const deadPid = String(finished.stdout);
    const labels = { ...makeResourceLabels("r1", "baseline"), [LABEL_PID]: deadPid, [LABEL_PID_START]: "1" };
    expect(isRunGone(labels, now, HOUR)).toBe(true);
  });

  it("treats a reused pid (another start time) as a gone run", () => {
    const labels = { ...makeResourceLabels("r1", "baseline"), [LABEL_PID_START]: `${readProcessStartTime(process.pid)}0` };
    expect(isRunGone(labels, now, HOUR)).toBe(true);
  });

  it("decides by age alone for resources made on another host or without a pid", () => {
    const other = { [LABEL_HOST]: `not-${hostname()}`, [LABEL_PID]: String(process.pid), [LABEL_CREATED]: "2026-01-01T22:00:00Z" };
    expect(isRunGone(other, now, HOUR)).toBe(true);
    expect(isRunGone(other, now, 3 * HOUR)).toBe(false);
    expect(isRunGone({}, now, HOUR)).toBe(false);
  });
});

describe("speedgate cleanup arguments", () => {
  it.each([[["--stale", "--repo", "."]], [["--run-id", "r1", "--stale"]], [["--stale", "--older-than-hours", "soon"]], [["--repo", "/"]]])(
    "rejects %j with a usage error",
    async (args) => {
      const logger = createRecordingLogger();
      const code = await main(["cleanup", ...args], { stdout: captureStream(), logger, signal: new AbortController().signal });
      expect(code).toBe(2);
      expect(logger.lines.at(-1)?.message).toMatch(/^speedgate cleanup: /);
    },
  );
});
