import { describe, expect, it } from "vitest";
import { hasDnsLeakFix } from "../../src/docker/check-daemon-version.js";

describe("hasDnsLeakFix (CVE-2024-29018)", () => {
  it.each([
    ["26.0.0", true],
    ["27.3.1", true],
    ["25.0.5", true],
    ["25.0.4", false],
    ["24.0.9", false],
    ["23.0.11", true],
    ["23.0.10", false],
    ["20.10.24+dfsg1", false],
    ["28.2.2", true],
  ])("Docker %s: %s", (version, fixed) => {
    expect(hasDnsLeakFix(version)).toBe(fixed);
  });

  it("cannot tell from a version it cannot read", () => {
    expect(hasDnsLeakFix("dev")).toBeNull();
  });
});
