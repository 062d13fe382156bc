import { describe, expect, it } from "vitest";
import { parseRoundConfig } from "../../src/config/load-round-config.js";
import { describeContainerRefusal } from "../../src/docker/describe-container-refusal.js";

const docker = parseRoundConfig({
  engine: "llama.cpp",
  runtime: "docker",
  port: 8080,
  baseline: { image: "llama:cpu" },
  bench: { prompts: "p.jsonl", maxTokens: 8, requestIntervalMs: 0, contextLimit: 1024, tolerance: 0.9 },
  gate: { minRoundScore: 1 },
}).docker;

describe("describeContainerRefusal", () => {
  it("names the unlimited memlock (speedgate's default) that runc could not set, from this machine's daemon's own words", () => {
    const message =
      "(HTTP code 500) server error - failed to create shim task: OCI runtime create failed: runc create failed: unable to start " +
      "container process: error during container init: error setting rlimits for ready process: error setting rlimit type 8: " +
      "operation not permitted: unknown";
    const failure = describeContainerRefusal("baseline", "start", message, docker);
    expect(failure).toMatchObject({
      engine: "baseline",
      stage: "startup",
      kind: "container_refused",
      label: "Docker refused to start the baseline container (docker.ulimits)",
      logTail: [],
    });
    expect(failure.summary).toMatch(/^failed to create shim task: .*rlimit type 8: operation not permitted: unknown$/);
    expect(failure.hint).toContain("memlock unlimited (rlimit type 8)");
    expect(failure.hint).toContain("says nothing about the engine or the patch");
  });

  it.each([
    ["(HTTP code 400) bad parameter - Range of CPUs is from 0.01 to 2.00, as there are only 2 CPUs available", "docker.cpus"],
    ["(HTTP code 400) bad parameter - Minimum memory limit allowed is 6MB", "docker.memory"],
    ["(HTTP code 400) bad parameter - invalid ulimit type: bogus", "docker.ulimits"],
    ["(HTTP code 500) server error - network speedgate-x not found", "docker.network"],
  ])("%s names %s", (message, field) => {
    expect(describeContainerRefusal("candidate", "create", message, docker).label).toBe(
      `Docker refused to create the candidate container (${field})`,
    );
  });

  it("blames the command, not a setting, for a program the image does not have", () => {
    const message =
      "(HTTP code 400) bad parameter - failed to create task for container: OCI runtime create failed: runc create failed: unable to " +
      'start container process: exec: "llama-server": executable file not found in $PATH: unknown';
    expect(describeContainerRefusal("baseline", "start", message, docker)).toMatchObject({
      kind: "exited",
      label: "the engine command could not be started",
    });
  });

  it("says what it can for a refusal it cannot place", () => {
    const failure = describeContainerRefusal("baseline", "create", "(HTTP code 500) server error - something new", docker);
    expect(failure).toMatchObject({
      kind: "container_refused",
      label: "Docker refused to create the baseline container",
      summary: "something new",
    });
  });
});
