import { describe, expect, it } from "vitest";
import { dockerTestContext } from "../support/docker/docker-test-context.js";
import { findPostgresBinaries } from "../support/database/start-throwaway-postgres.js";
import { runFixture } from "./run-fixture.js";

/** What the run printed after vitest's summary, where a reader of the run looks last. */
function afterSummary(output: string): string {
  return output.slice(output.lastIndexOf("Duration"));
}

/*
 * On a fresh machine with a Docker daemon but no /bin/busybox, every Docker test skipped with a notice
 * hundreds of lines above the summary that did not say how to fix it; the PostgreSQL tests skipped with
 * one line on stderr before the tests, never repeated.
 */
describe.skipIf(!dockerTestContext())("npm test on a machine without busybox", () => {
  it("skips the Docker tests and says after the summary which package to install", async () => {
    const { code, output } = await runFixture("needs-docker", {
      SPEEDGATE_TEST_BUSYBOX: "/nonexistent/busybox",
      SPEEDGATE_REQUIRE_DOCKER: undefined,
    });
    expect(code, output).toBe(0);
    expect(output).toMatch(/1 skipped/);
    const summary = afterSummary(output);
    expect(summary).toContain("SKIPPED for lack of something on this machine");
    expect(summary).toContain("the Docker tests");
    expect(summary).toContain("/nonexistent/busybox is missing");
    expect(summary).toContain("sudo apt-get install busybox-static");
    expect(summary).toContain("SPEEDGATE_REQUIRE_DOCKER=1 makes this an error");
  }, 120_000);

  it("refuses to skip with SPEEDGATE_REQUIRE_DOCKER=1, as in CI, naming the package", async () => {
    const { code, output } = await runFixture("needs-docker", {
      SPEEDGATE_TEST_BUSYBOX: "/nonexistent/busybox",
      SPEEDGATE_REQUIRE_DOCKER: "1",
    });
    expect(code).not.toBe(0);
    expect(output).toContain("SPEEDGATE_REQUIRE_DOCKER=1 but the Docker tests");
    expect(output).toContain("/nonexistent/busybox is missing");
    expect(output).toContain("busybox-static");
  }, 120_000);
});

describe("npm test and the PostgreSQL server tests", () => {
  it("skips them on a machine without PostgreSQL and says after the summary how to get it", async () => {
    const { code, output } = await runFixture("needs-postgres", {
      SPEEDGATE_TEST_DATABASE_URL: undefined,
      SPEEDGATE_TEST_POSTGRES_ROOT: "/nonexistent/postgresql",
      SPEEDGATE_REQUIRE_POSTGRES: undefined,
    });
    expect(code, output).toBe(0);
    expect(output).toMatch(/1 skipped/);
    const summary = afterSummary(output);
    expect(summary).toContain("the PostgreSQL server half");
    expect(summary).toContain("sudo apt-get install postgresql");
  }, 120_000);

  it.skipIf(!findPostgresBinaries())(
    "starts a throwaway server of its own when the binaries are installed and no URL is given, and stops it",
    async () => {
      const { code, output } = await runFixture("needs-postgres", {
        SPEEDGATE_TEST_DATABASE_URL: undefined,
        SPEEDGATE_REQUIRE_POSTGRES: "1",
      });
      expect(code, output).toBe(0);
      expect(output).toMatch(/1 passed/);
      expect(afterSummary(output)).not.toContain("SKIPPED");
    },
    120_000,
  );
});
