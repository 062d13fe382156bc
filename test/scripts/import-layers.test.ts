import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { FLOORS, checkImportLayers, describeLayerReport } from "../../scripts/lib/import-layers.js";
import { makeTempDir } from "../support/make-temp-dir.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

async function writeTree(files: Record<string, string>): Promise<string> {
  const root = await makeTempDir("layers-");
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe("the import layers", () => {
  it("hold in this repository: every import of src/ and the hosts runs down, and no files import each other", () => {
    const report = checkImportLayers(ROOT);
    expect(describeLayerReport(report)).toMatch(/every import runs down, no circle$/);
    expect(report.violations).toEqual([]);
    expect(report.circles).toEqual([]);
    // The check read the tree, not an empty folder.
    expect(report.files).toBeGreaterThan(300);
    expect(report.imports).toBeGreaterThan(1_000);
  });

  it("refuse an import from a higher floor, between folders of one floor, out of src/, and between hosts", async () => {
    const root = await writeTree({
      "src/scoring/score.ts": 'import { runRound } from "../round/run.js";\nexport const score = runRound;\n',
      "src/round/run.ts": "export const runRound = 1;\n",
      "src/metrics/m.ts": 'import type { C } from "../calibration/c.js";\nexport type M = C;\n',
      "src/calibration/c.ts": "export type C = number;\n",
      "src/config/load.ts": 'import { x } from "../../bot/app.js";\nexport const y = x;\n',
      "bot/app.ts": 'import { a } from "../action/main.js";\nexport const x = a;\n',
      "action/main.ts": 'import { score } from "../src/scoring/score.js";\nexport const a = score;\n',
    });
    const report = checkImportLayers(root);
    const pairs = report.violations.map((violation) => `${violation.from} -> ${violation.to}`);
    expect([...pairs].sort()).toEqual([
      "bot/app.ts -> action/main.ts",
      "src/config/load.ts -> bot/app.ts",
      "src/metrics/m.ts -> src/calibration/c.ts",
      "src/scoring/score.ts -> src/round/run.ts",
    ]);
    expect(report.violations.find((violation) => violation.from === "src/scoring/score.ts")?.why).toMatch(/higher floor, src\/round\//);
    expect(report.violations.find((violation) => violation.from === "src/metrics/m.ts")?.why).toMatch(/share floor/);
    // The hosts may import the core: action -> src is no violation, and a type-only import still counts.
    expect(pairs).not.toContain("action/main.ts -> src/scoring/score.ts");
  });

  it("find a circle of files, type-only and dynamic imports included, and a folder on no floor", async () => {
    const root = await writeTree({
      "src/scoring/a.ts": 'import type { B } from "./b.js";\nexport type A = B | 1;\n',
      "src/scoring/b.ts": 'export async function load() { return await import("./c.js"); }\nexport type B = 2;\n',
      "src/scoring/c.ts": 'import type { A } from "./a.js";\nexport type C = A;\n',
      "src/scoring/d.ts": 'import type { A } from "./a.js";\nexport type D = A;\n',
      "src/newfolder/x.ts": "export const x = 1;\n",
    });
    const report = checkImportLayers(root);
    expect(report.circles).toEqual([["src/scoring/a.ts", "src/scoring/b.ts", "src/scoring/c.ts"]]);
    expect(report.violations.map((violation) => [violation.from, violation.why])).toEqual([
      ["src/newfolder/x.ts", "src/newfolder/ is on no floor: add it to FLOORS in scripts/lib/import-layers.ts"],
    ]);
    expect(describeLayerReport(report)).toMatch(/2 problem\(s\)$/);
  });

  it("are drawn in docs/architecture.md as FLOORS has them: one row per floor, its name and its folders", () => {
    const doc = readFileSync(join(ROOT, "docs/architecture.md"), "utf8");
    const rows = [...doc.matchAll(/^\| (\d+) \| ([^|]+) \| ([^|]+) \|/gm)].map((match) => ({
      floor: Number(match[1]),
      name: (match[2] ?? "").trim(),
      folders: [...(match[3] ?? "").matchAll(/`([^`]+)`/g)].map((folder) => folder[1]),
    }));
    expect(rows).toEqual(FLOORS.map((floor, index) => ({ floor: index, name: floor.name, folders: [...floor.folders] })));
    const picture = doc.slice(doc.indexOf("flowchart BT"), doc.indexOf("```", doc.indexOf("flowchart BT")));
    for (const [index, floor] of FLOORS.entries()) {
      const folders = floor.folders.map((folder) => (folder === "." ? "src/*.ts" : `${folder}/`)).join(" ");
      expect(picture).toContain(`F${index}["${index} · ${floor.name}: ${folders}"]`);
    }
  });
});
