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
 * The arguments that follow `node` to run this same speedgate: the bundle when running from it, else
 * the TypeScript entry through tsx (tests and `npm run` from a clone), so `{speedgate}` in an engine
 * command starts the reference engine of the very version that is scoring it.
 */
export function speedgateEntryArgs(): string[] {
  const self = fileURLToPath(import.meta.url);
  const root = findPackageRoot(self);
  if (!self.endsWith(".ts")) return [join(root, "dist", "cli.js")];
  const loader = join(root, "node_modules", "tsx", "dist", "loader.mjs");
  return ["--import", pathToFileURL(loader).href, join(root, "src", "cli", "index.ts")];
}
