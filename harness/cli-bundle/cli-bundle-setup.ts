import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { build } from "esbuild";
import { NODE_BUNDLE_BANNER } from "../node-bundle-banner.js";
import { CLI_BUNDLE_VARIABLE } from "../../src/engine/locate-speedgate.js";

const repoRoot = resolve(import.meta.dirname, "..", "..");

/**
 * Bundles the CLI from the sources once per test run and points SPEEDGATE_DEV_CLI_BUNDLE at it (the
 * workers and every process they start inherit it), so the hundreds of reference engines and CLI
 * processes the tests start load one file in about 0.3 s of CPU, not the TypeScript sources through
 * tsx's loader in 1.5 s each. Inside the repository (node_modules/.cache), so the bundle finds
 * speedgate's package.json and its external packages by walking up, as dist/cli.js does.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const cache = join(repoRoot, "node_modules", ".cache", "speedgate-test");
  await mkdir(cache, { recursive: true });
  const dir = await mkdtemp(join(cache, "cli-"));
  const outfile = join(dir, "cli.js");
  await build({
    entryPoints: [join(repoRoot, "src", "cli", "index.ts")],
    outfile,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "esm",
    legalComments: "none",
    sourcemap: "inline",
    // As scripts/build-dist.mjs: native add-ons and PGlite (which finds its WASM beside its own module) stay in node_modules.
    external: ["cpu-features", "*.node", "@electric-sql/pglite", "@electric-sql/pglite-socket"],
    banner: { js: NODE_BUNDLE_BANNER },
    logLevel: "warning",
  });
  const previous = process.env[CLI_BUNDLE_VARIABLE];
  process.env[CLI_BUNDLE_VARIABLE] = outfile;
  return async () => {
    if (previous === undefined) delete process.env[CLI_BUNDLE_VARIABLE];
    else process.env[CLI_BUNDLE_VARIABLE] = previous;
    await rm(dir, { recursive: true, force: true });
  };
}
