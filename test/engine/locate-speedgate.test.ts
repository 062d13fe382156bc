import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CLI_BUNDLE_VARIABLE, findPackageRoot, speedgateEntryArgs } from "../../src/engine/locate-speedgate.js";

const root = join(import.meta.dirname, "..", "..");

describe("speedgateEntryArgs from the sources", () => {
  const saved = process.env[CLI_BUNDLE_VARIABLE];
  afterEach(() => {
    if (saved === undefined) delete process.env[CLI_BUNDLE_VARIABLE];
    else process.env[CLI_BUNDLE_VARIABLE] = saved;
  });

  it("runs the TypeScript entry through tsx when no development bundle is named", () => {
    delete process.env[CLI_BUNDLE_VARIABLE];
    const args = speedgateEntryArgs();
    expect(args[0]).toBe("--import");
    expect(args[1]).toMatch(/tsx\/dist\/loader\.mjs$/);
    expect(args[2]).toBe(join(root, "src", "cli", "index.ts"));
  });

  it("runs the development bundle of the same sources when the test run names one", () => {
    process.env[CLI_BUNDLE_VARIABLE] = "/somewhere/cli.js";
    expect(speedgateEntryArgs()).toEqual(["/somewhere/cli.js"]);
  });

  it("finds the package root from a bundle inside node_modules/.cache, as the test run's bundle is", () => {
    expect(findPackageRoot(join(root, "node_modules", ".cache", "speedgate-test", "cli-x", "cli.js"))).toBe(root);
  });
});
