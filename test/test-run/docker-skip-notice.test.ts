import { describe, expect, it } from "vitest";
import { dockerTestContext } from "../support/docker/docker-test-context.js";
import { runFixture } from "./run-fixture.js";

/*
 * On a fresh machine with a Docker daemon but no /bin/busybox, every Docker test skipped with a notice
 * hundreds of lines above the summary that did not say how to fix it.
 */
describe.skipIf(!dockerTestContext())("npm test on a machine without busybox", () => {
  it("skips the Docker tests and says after the summary which package to install", async () => {
    const { code, output } = await runFixture("needs-docker", { SPEEDGATE_TEST_BUSYBOX: "/nonexistent/busybox", SPEEDGATE_REQUIRE_DOCKER: undefined });
    expect(code, output).toBe(0);
    expect(output).toMatch(/1 skipped/);
    const afterSummary = output.slice(output.lastIndexOf("Duration"));
    expect(afterSummary).toContain("speedgate: the Docker tests were SKIPPED");
    expect(afterSummary).toContain("/nonexistent/busybox is missing");
    expect(afterSummary).toContain("sudo apt-get install busybox-static");
  }, 120_000);

  it("refuses to skip with SPEEDGATE_REQUIRE_DOCKER=1, as in CI, naming the package", async () => {
    const { code, output } = await runFixture("needs-docker", { SPEEDGATE_TEST_BUSYBOX: "/nonexistent/busybox", SPEEDGATE_REQUIRE_DOCKER: "1" });
    expect(code).not.toBe(0);
    expect(output).toContain("SPEEDGATE_REQUIRE_DOCKER=1 but the test engine image could not be built: /nonexistent/busybox is missing");
    expect(output).toContain("busybox-static");
  }, 120_000);
});
