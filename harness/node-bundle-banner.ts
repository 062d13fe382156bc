/**
 * The banner of every bundle the tests build with esbuild for Node (the CLI bundle, the Docker test
 * image's CLI), as scripts/build-dist.mjs does for dist/: CommonJS dependencies bundled into ESM (ssh2
 * under dockerode) read require, __filename and __dirname at load.
 */
export const NODE_BUNDLE_BANNER = [
  "import { createRequire as __sgRequire } from 'node:module';",
  "import { dirname as __sgDirname } from 'node:path';",
  "import { fileURLToPath as __sgFileURLToPath } from 'node:url';",
  "const require = __sgRequire(import.meta.url);",
  "const __filename = __sgFileURLToPath(import.meta.url);",
  "const __dirname = __sgDirname(__filename);",
].join("\n");
