import { describe, expect, it } from "vitest";
import { dockerTestContext } from "../support/docker/docker-test-context.js";
import { readProcStat } from "../../src/engine/process-group.js";
import { runFixture } from "./run-fixture.js";

/*
 * A test run must leave nothing behind: no process it started, no speedgate container, network, image
 * or volume. The run checks it at the end, removes what it finds, and fails naming it.
 */
describe("a test run that leaves something behind", () => {
  it("fails when a test leaves a process running, names it, and kills it", async () => {
    const { code, output } = await runFixture("leaves-process");
    expect(code, output).not.toBe(0);
    const match = /the test run left 1 process running \(killed now\): (\d+) sleep 600/.exec(output);
    expect(match, output).not.toBeNull();
    // Killed: gone, or a zombie waiting for init to reap it.
    expect(readProcStat(Number(match?.[1]))?.state ?? "gone").toMatch(/^(gone|Z|X)$/);
  }, 120_000);

  it.skipIf(!dockerTestContext())(
    "fails when a test leaves a labelled container, names it, and removes it",
    async () => {
      const { code, output } = await runFixture("leaves-container", { SPEEDGATE_REQUIRE_DOCKER: "1" });
      expect(code, output).not.toBe(0);
      expect(output).toMatch(/the test run left 1 Docker resource\(s\) behind \(removed now\): container \/\S+/);
      const context = dockerTestContext();
      const left = await context?.docker.listContainers({ all: true, filters: { label: ["speedgate.run-id=forgotten-run"] } });
      expect(left).toEqual([]);
    },
    180_000,
  );
});
