// Bundles the action's entries and the CLI into dist/, which is committed: the runner executes the
// action straight from the repository, and `npx speedgate` works without a build step.
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { build } from "esbuild";

const entries = [
  { in: "action/index.ts", out: "index" },
  { in: "action/post.ts", out: "post" },
  { in: "src/cli/index.ts", out: "cli" },
].filter((entry) => existsSync(entry.in));

await rm("dist", { recursive: true, force: true });
await build({
  entryPoints: entries,
  outdir: "dist",
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  legalComments: "none",
  // Native add-ons that dockerode's ssh transport loads only when present; speedgate talks to the local socket.
  // PGlite finds its WASM and data files beside its own module, so `speedgate history` loads it from
  // node_modules (a dependency) instead of a copy in dist/ that would look for them there.
  external: ["cpu-features", "*.node", "@electric-sql/pglite", "@electric-sql/pglite-socket"],
  banner: {
    js: [
      "#!/usr/bin/env node",
      "import { createRequire as __speedgateCreateRequire } from 'node:module';",
      "import { dirname as __speedgateDirname } from 'node:path';",
      "import { fileURLToPath as __speedgateFileURLToPath } from 'node:url';",
      "const require = __speedgateCreateRequire(import.meta.url);",
      // CommonJS dependencies read these at load time (ssh2, under dockerode, locates its wasm with __dirname).
      "const __filename = __speedgateFileURLToPath(import.meta.url);",
      "const __dirname = __speedgateDirname(__filename);",
    ].join("\n"),
  },
  logLevel: "warning",
});
