import { appendFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  AREAS,
  BENCH_FLOORS,
  BOT_FLOORS,
  FLOORS,
  type Floor,
  type LayerReport,
  HARNESS_FLOORS,
  SCRIPTS_FLOORS,
  checkImportLayers,
  describeLayerReport,
} from "../../scripts/lib/import-layers.js";
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

/** A module that imports each specifier for its side effects (the check reads every kind of import alike). */
function moduleText(...specifiers: string[]): string {
  return [...specifiers.map((specifier) => `import "${specifier}";`), "export const value = 1;", ""].join("\n");
}

/** Each violation as [from -> to, why], sorted. */
function describeViolations(report: LayerReport): string[][] {
  return report.violations.map((violation) => [`${violation.from} -> ${violation.to}`, violation.why]).sort();
}

describe("the import layers", () => {
  it("hold in this repository: every import of every area runs down, and no files import each other", () => {
    const report = checkImportLayers(ROOT);
    expect(describeLayerReport(report)).toMatch(/every import runs down, no circle$/);
    expect(report.violations).toEqual([]);
    expect(report.circles).toEqual([]);
    // The check read the tree, every area of it, not an empty folder.
    expect(Object.keys(report.areas)).toEqual(AREAS.flatMap((floor) => floor.areas));
    expect(report.areas.src).toBeGreaterThan(250);
    for (const area of ["action", "bot", "scripts", "harness", "bench", "test"]) expect(report.areas[area], area).toBeGreaterThan(5);
    expect(report.imports).toBeGreaterThan(2_000);
  });

  it("fail on an upward import planted in a copy of this repository: in bot/, bench/, scripts/ and the harness", async () => {
    const copy = await makeTempDir("layers-copy-");
    for (const floor of AREAS) for (const area of floor.areas) cpSync(join(ROOT, area), join(copy, area), { recursive: true });
    const plant = (file: string, specifier: string): void => appendFileSync(join(copy, file), `\nimport "${specifier}";\n`);
    // The arrow bot/work/open-job.ts made: the work queue reading the handlers' state.
    plant("bot/work/app-work.ts", "../handlers/app-deps.js");
    // The app's parts are below the app that wires them.
    plant("bot/keyed-queue.ts", "./index.js");
    plant("bench/lib/percentile.ts", "../bad-input/corpus-row.js");
    // What bench/ used to do: reach into the tests for their helpers.
    plant("bench/tokenizing-cost.ts", "../test/support/make-temp-dir.js");
    plant("scripts/lib/render-card-html.ts", "../generate-example-cards.js");
    plant("scripts/lib/build-example-cards.ts", "../../harness/make-card.js");
    plant("harness/make-card.ts", "../test/support/make-temp-dir.js");
    const report = checkImportLayers(copy);
    expect(describeViolations(report)).toEqual([
      [
        "bench/lib/percentile.ts -> bench/bad-input/corpus-row.ts",
        "bench/lib/ (floor 0) imports from a higher floor, bench/bad-input/ (floor 1)",
      ],
      ["bench/tokenizing-cost.ts -> test/support/make-temp-dir.ts", "bench/ (figures) imports from a higher area, test/ (tests)"],
      ["bot/keyed-queue.ts -> bot/index.ts", "bot/*.ts (floor 0) imports from a higher floor, bot/index.ts (floor 5)"],
      ["bot/work/app-work.ts -> bot/handlers/app-deps.ts", "bot/work/ (floor 1) imports from a higher floor, bot/handlers/ (floor 3)"],
      ["harness/make-card.ts -> test/support/make-temp-dir.ts", "harness/ (the harness) imports from a higher area, test/ (tests)"],
      [
        "scripts/lib/build-example-cards.ts -> harness/make-card.ts",
        "scripts/ (hosts and scripts) imports from a higher area, harness/ (the harness)",
      ],
      [
        "scripts/lib/render-card-html.ts -> scripts/generate-example-cards.ts",
        "scripts/lib/ (floor 0) imports from a higher floor, scripts/*.ts (floor 1)",
      ],
    ]);
    // The two in bot/ also close a circle of files (the queue through the handlers' state and the store back to the queue).
    expect(report.circles).toHaveLength(1);
    expect(report.circles[0]).toEqual(expect.arrayContaining(["bot/work/app-work.ts", "bot/handlers/app-deps.ts", "bot/keyed-queue.ts"]));
    expect(describeLayerReport(report)).toMatch(/: 8 problem\(s\)$/);
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

  it("place a file the floors name on its own floor, any other file of the area's top on the area's ground", async () => {
    const root = await writeTree({
      "bot/server.ts": moduleText("./index.js"),
      "bot/index.ts": moduleText("./handlers/job.js"),
      "bot/handlers/job.ts": moduleText("../work/queue.js", "../part.js"),
      "bot/work/queue.ts": moduleText("../part.js"),
      "bot/part.ts": moduleText("./server.js"),
      "bot/newfolder/x.ts": moduleText(),
      "bench/lib/a.ts": moduleText("../bad-input/b.js"),
      "bench/bad-input/b.ts": moduleText(),
    });
    expect(describeViolations(checkImportLayers(root))).toEqual([
      ["bench/lib/a.ts -> bench/bad-input/b.ts", "bench/lib/ (floor 0) imports from a higher floor, bench/bad-input/ (floor 1)"],
      ["bot/newfolder/x.ts -> bot/newfolder/x.ts", "bot/newfolder/ is on no floor: add it to BOT_FLOORS in scripts/lib/import-layers.ts"],
      ["bot/part.ts -> bot/server.ts", "bot/*.ts (floor 0) imports from a higher floor, bot/server.ts (floor 6)"],
    ]);
  });

  it("order the areas: each imports lower areas only, the tests anything, and nothing outside the areas", async () => {
    const root = await writeTree({
      "src/a.ts": moduleText(),
      "scripts/s.ts": moduleText("../src/a.js", "../harness/h.js"),
      "harness/h.ts": moduleText("../src/a.js", "../bot/x.js", "../bench/b.js"),
      "bot/x.ts": moduleText("../scripts/s.js"),
      "bench/b.ts": moduleText("../harness/h.js", "../test/t.js"),
      "test/t.ts": moduleText("../bench/b.js", "../scripts/s.js", "../examples/e.js"),
      "examples/e.ts": moduleText(),
    });
    const report = checkImportLayers(root);
    expect(describeViolations(report)).toEqual([
      ["bench/b.ts -> test/t.ts", "bench/ (figures) imports from a higher area, test/ (tests)"],
      ["bot/x.ts -> scripts/s.ts", "bot/ and scripts/ share a floor (hosts and scripts): neither imports the other"],
      ["harness/h.ts -> bench/b.ts", "harness/ (the harness) imports from a higher area, bench/ (figures)"],
      ["scripts/s.ts -> harness/h.ts", "scripts/ (hosts and scripts) imports from a higher area, harness/ (the harness)"],
      ["test/t.ts -> examples/e.ts", "test/ imports examples/, which is in no area of AREAS in scripts/lib/import-layers.ts"],
    ]);
    // harness -> bot runs down (the fake GitHub starts the app), test -> bench and test -> scripts too (the tests check them).
    expect(report.areas).toEqual({ src: 1, action: 0, bot: 1, scripts: 1, harness: 1, bench: 1, test: 1 });
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

  it("are drawn in docs/architecture.md as FLOORS, AREAS and each area's floors have them: one row per floor, its name and places", () => {
    const doc = readFileSync(join(ROOT, "docs/architecture.md"), "utf8");
    // A table's rows: "| 3 | name | `a`, `b` | what |" for src/, "| bot 3 | …" for an area's floors, "| area 3 | …" for the areas.
    const rows = (prefix: string): Array<{ floor: number; name: string; folders: string[] }> =>
      [...doc.matchAll(new RegExp(`^\\| ${prefix}(\\d+) \\| ([^|]+) \\| ([^|]+) \\|`, "gm"))].map((match) => ({
        floor: Number(match[1]),
        name: (match[2] ?? "").trim(),
        folders: [...(match[3] ?? "").matchAll(/`([^`]+)`/g)].map((folder) => folder[1] ?? ""),
      }));
    const expected = (floors: readonly Floor[]) =>
      floors.map((floor, index) => ({ floor: index, name: floor.name, folders: [...floor.folders] }));
    expect(rows("")).toEqual(expected(FLOORS));
    expect(rows("area ")).toEqual(expected(AREAS.map((floor) => ({ name: floor.name, folders: floor.areas }))));
    expect(rows("bot ")).toEqual(expected(BOT_FLOORS));
    expect(rows("harness ")).toEqual(expected(HARNESS_FLOORS));
    expect(rows("bench ")).toEqual(expected(BENCH_FLOORS));
    expect(rows("scripts ")).toEqual(expected(SCRIPTS_FLOORS));
    const pictureAt = (start: number): string => doc.slice(start, doc.indexOf("```", start));
    const floorsPicture = pictureAt(doc.indexOf("flowchart BT"));
    for (const [index, floor] of FLOORS.entries()) {
      const folders = floor.folders.map((folder) => (folder === "." ? "src/*.ts" : `${folder}/`)).join(" ");
      expect(floorsPicture).toContain(`F${index}["${index} · ${floor.name}: ${folders}"]`);
    }
    const areasPicture = pictureAt(doc.indexOf("flowchart BT", doc.indexOf("flowchart BT") + 1));
    for (const [index, floor] of AREAS.entries()) {
      expect(areasPicture).toContain(`A${index}["${index} · ${floor.name}: ${floor.areas.map((area) => `${area}/`).join(" ")}"]`);
    }
  });
});
