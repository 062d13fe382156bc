import { readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { runFixture } from "./run-fixture.js";

describe("a test file that leaves temporary folders behind", () => {
  it("fails, named, with what it left; and nothing stays on the machine", async () => {
    const before = await readdir(tmpdir());
    const { code, output } = await runFixture("leaky");
    expect(code).toBe(1);
    expect(output).toMatch(/test\/test-run\/fixtures\/leaky\.fixture\.ts left 1 temporary entry behind: speedgate-forgotten-\w+/);
    expect(await readdir(tmpdir())).toEqual(before);
  }, 120_000);

  it("passes when its folders go through makeTempDir", async () => {
    const { code, output } = await runFixture("tidy");
    expect(code, output).toBe(0);
    expect(output).toMatch(/1 passed/);
  }, 120_000);
});
