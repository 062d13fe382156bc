import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/**
 * The folder holding speedgate's package.json, found by walking up from this module. Works from the
 * sources (src/engine/) and from the bundle (dist/ or dist/chunks/) alike, so the demo's files are
 * found wherever the package was installed or cloned.
 */
export function findPackageRoot(from: string = fileURLToPath(import.meta.url)): string {
  let dir = dirname(from);
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      try {
        const name = (JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown }).name;
        if (name === "speedgate") return dir;
      } catch {
        // An unreadable package.json on the way up is not ours; keep walking.
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`could not find speedgate's package.json above ${from}`);
    dir = parent;
  }
}

/**
 * For development from the sources: a bundle of those same sources, which the test run builds once
 * and names here so that `{speedgate}` loads one file instead of compiling the sources through tsx at
 * every engine start (0.3 s of CPU against 1.5 s, hundreds of times a run). Ignored when speedgate runs
 * from its own bundle.
 */
export const CLI_BUNDLE_VARIABLE = "SPEEDGATE_DEV_CLI_BUNDLE";

/**
 * The arguments that follow `node` to run this same speedgate: the bundle when running from it, else
 * the TypeScript entry through tsx (tests and `npm run` from a clone), so `{speedgate}` in an engine
 * command starts the reference engine of the very version that is scoring it.
 */
export function speedgateEntryArgs(): string[] {
  const self = fileURLToPath(import.meta.url);
  const root = findPackageRoot(self);
  if (!self.endsWith(".ts")) return [join(root, "dist", "cli.js")];
  const devBundle = process.env[CLI_BUNDLE_VARIABLE];
  if (devBundle) return [devBundle];
  const loader = join(root, "node_modules", "tsx", "dist", "loader.mjs");
  return ["--import", pathToFileURL(loader).href, join(root, "src", "cli", "index.ts")];
}
