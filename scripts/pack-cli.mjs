// Packs the CLI as a self-contained npm tarball, speedgate-<version>.tgz: dist/ (every dependency is
// bundled into it, except PGlite, which ships beside it as bundled dependencies) and the examples the
// demo and `run --check` use, so `npx ./speedgate-<version>.tgz demo` or `npm install -g` downloads nothing. The
// repository's own package.json lists the dependencies the sources, the tests and the app need.
import { execFileSync } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";

const root = resolve(import.meta.dirname, "..");
const { values } = parseArgs({ options: { out: { type: "string", default: "." } } });
const out = resolve(values.out);

const manifest = JSON.parse(await readFile(join(root, "package.json"), "utf8"));
/**
 * What scripts/build-dist.mjs leaves out of the bundle and the CLI loads at run time; uPlot's files are copied
 * beside the pages `speedgate history --html` writes (read from the package, never bundled into the CLI).
 */
const BUNDLED = ["@electric-sql/pglite", "@electric-sql/pglite-socket", "uplot"];
const staging = await mkdtemp(join(tmpdir(), "speedgate-pack-"));
try {
  for (const path of ["dist", "examples", "action.yml", "README.md"]) await cp(join(root, path), join(staging, path), { recursive: true });
  // The packages dist/ leaves external travel inside the tarball as bundled dependencies: PGlite finds its
  // WASM and data files beside its own module, which esbuild cannot inline (`speedgate history` on the
  // app's embedded database needs it). Installing still downloads nothing.
  const bundled = {};
  for (const name of BUNDLED) {
    const source = join(root, "node_modules", name);
    const own = JSON.parse(await readFile(join(source, "package.json"), "utf8"));
    await cp(source, join(staging, "node_modules", name), { recursive: true, filter: (path) => !path.endsWith(".map") });
    bundled[name] = own.version;
  }
  const packed = {
    name: manifest.name,
    version: manifest.version,
    description: manifest.description,
    license: manifest.license,
    type: manifest.type,
    engines: manifest.engines,
    bin: manifest.bin,
    dependencies: bundled,
    bundleDependencies: BUNDLED,
  };
  await writeFile(join(staging, "package.json"), `${JSON.stringify(packed, null, 2)}\n`);
  await mkdir(out, { recursive: true });
  const [result] = JSON.parse(
    execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", out], { cwd: staging, encoding: "utf8" }),
  );
  process.stdout.write(`${join(out, result.filename)}\n`);
} finally {
  await rm(staging, { recursive: true, force: true });
}
