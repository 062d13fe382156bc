// Packs the CLI as a self-contained npm tarball, speedgate-<version>.tgz: dist/ (every dependency is
// bundled into it) and the examples the demo and `run --check` use, under a package.json without
// dependencies, so `npx ./speedgate-<version>.tgz demo` or `npm install -g` downloads nothing. The
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
const staging = await mkdtemp(join(tmpdir(), "speedgate-pack-"));
try {
  for (const path of ["dist", "examples", "action.yml", "README.md"]) await cp(join(root, path), join(staging, path), { recursive: true });
  const packed = {
    name: manifest.name,
    version: manifest.version,
    description: manifest.description,
    license: manifest.license,
    type: manifest.type,
    engines: manifest.engines,
    bin: manifest.bin,
  };
  await writeFile(join(staging, "package.json"), `${JSON.stringify(packed, null, 2)}\n`);
  await mkdir(out, { recursive: true });
  const [result] = JSON.parse(execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", out], { cwd: staging, encoding: "utf8" }));
  process.stdout.write(`${join(out, result.filename)}\n`);
} finally {
  await rm(staging, { recursive: true, force: true });
}
