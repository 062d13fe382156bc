import { describe, expect, it } from "vitest";
import { runFixture } from "./run-fixture.js";

/*
 * Like Docker and PostgreSQL: without llama.cpp's server the real-engine tests skip, and the notice that
 * says so comes again after vitest's summary, where a reader looks last; in CI it is an error.
 */
describe("npm test without llama.cpp's server", () => {
  it("skips the llama.cpp tests and says after the summary where the server goes and how to build it", async () => {
    const { code, output } = await runFixture("needs-llama-cpp", {
      SPEEDGATE_LLAMA_CPP_DIR: "/nonexistent/llama-cpp",
      SPEEDGATE_REQUIRE_LLAMA_CPP: undefined,
    });
    expect(code, output).toBe(0);
    expect(output).toMatch(/1 skipped/);
    const afterSummary = output.slice(output.lastIndexOf("Duration"));
    expect(afterSummary).toContain("SKIPPED for lack of something on this machine");
    expect(afterSummary).toContain("the llama.cpp tests");
    expect(afterSummary).toContain("no llama-server and tiny-words.gguf in SPEEDGATE_LLAMA_CPP_DIR=/nonexistent/llama-cpp");
    expect(afterSummary).toContain("scripts/build-llama-server.sh");
  }, 120_000);

  it("refuses to skip with SPEEDGATE_REQUIRE_LLAMA_CPP=1, as in CI", async () => {
    const { code, output } = await runFixture("needs-llama-cpp", {
      SPEEDGATE_LLAMA_CPP_DIR: "/nonexistent/llama-cpp",
      SPEEDGATE_REQUIRE_LLAMA_CPP: "1",
    });
    expect(code).not.toBe(0);
    expect(output).toContain("SPEEDGATE_REQUIRE_LLAMA_CPP=1 but the llama.cpp tests");
    expect(output).toContain("no llama-server and tiny-words.gguf in SPEEDGATE_LLAMA_CPP_DIR=/nonexistent/llama-cpp");
  }, 120_000);
});
