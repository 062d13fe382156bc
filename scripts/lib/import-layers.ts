import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";

/*
 * The floors of src/, lowest first: a file may import from its own folder and from folders on lower
 * floors, never from a higher floor or from another folder of its own floor. This list is the one place
 * the order is written; docs/architecture.md draws it, and a test checks the drawing against it.
 * Files directly in src/ (the logger, the clock, the version) stand on the ground floor as ".".
 */
export const FLOORS: ReadonlyArray<{ name: string; folders: readonly string[] }> = [
  { name: "ground: shared nouns", folders: [".", "vocabulary"] },
  { name: "inputs and text", folders: ["safe-text", "patch", "git", "prompts", "tokens"] },
  { name: "rules", folders: ["scoring", "failure"] },
  { name: "measurements", folders: ["metrics", "calibration", "sim-engine"] },
  { name: "round config", folders: ["config"] },
  { name: "card and client", folders: ["scorecard", "client"] },
  { name: "changes and stored cards", folders: ["commits", "shard", "store"] },
  { name: "runtimes and GitHub", folders: ["engine", "github", "history"] },
  { name: "containers", folders: ["docker"] },
  { name: "the round", folders: ["round"] },
  { name: "commands", folders: ["cli"] },
];

/** The hosts above the core: each may import src/, none may import another host. */
export const HOSTS = ["action", "bot"] as const;

export interface LayerViolation {
  from: string;
  to: string;
  why: string;
}

export interface LayerReport {
  files: number;
  imports: number;
  violations: LayerViolation[];
  /** Each circle of files importing each other (type-only imports count), as paths from the root. */
  circles: string[][];
}

const SOURCE_EXTENSIONS = [".ts", ".mts"];

function listSources(folder: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) found.push(...listSources(path));
    else if (SOURCE_EXTENSIONS.some((extension) => entry.name.endsWith(extension)) && !entry.name.endsWith(".d.ts")) found.push(path);
  }
  return found;
}

/** The relative imports of one file (static, dynamic, re-exports, type-only), resolved to .ts paths. */
function readImports(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
  return info.importedFiles
    .map((reference) => reference.fileName)
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => resolve(dirname(file), specifier.replace(/\.js$/, ".ts").replace(/\.mjs$/, ".mts")));
}

/** Where a file stands: "src/<folder>" (or "src/." for src's own files), a host, or elsewhere. */
function placeOf(root: string, file: string): { area: string; folder: string | null } {
  const parts = relative(root, file).split(sep);
  const area = parts[0] ?? "";
  if (area !== "src") return { area, folder: null };
  return { area, folder: parts.length === 2 ? "." : (parts[1] ?? ".") };
}

function floorOf(folder: string): number {
  return FLOORS.findIndex((floor) => floor.folders.includes(folder));
}

/** Tarjan's strongly connected components; every component of two files or more is a circle. */
function findCircles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(target) ?? 0));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    for (;;) {
      const member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
      if (member === node) break;
    }
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) circles.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return circles;
}

/** Checks every import of src/ and the hosts against the floors, and looks for circles of files. */
export function checkImportLayers(root: string): LayerReport {
  const areas = ["src", ...HOSTS];
  const files = areas.flatMap((area) => {
    try {
      return listSources(join(root, area));
    } catch {
      return [];
    }
  });
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  const violations: LayerViolation[] = [];
  let imports = 0;
  for (const file of files) {
    const from = placeOf(root, file);
    const name = relative(root, file);
    if (from.folder !== null && floorOf(from.folder) < 0) {
      violations.push({
        from: name,
        to: name,
        why: `src/${from.folder}/ is on no floor: add it to FLOORS in scripts/lib/import-layers.ts`,
      });
    }
    const targets: string[] = [];
    for (const target of readImports(file)) {
      imports++;
      const to = placeOf(root, target);
      const targetName = relative(root, target);
      if (known.has(target)) targets.push(target);
      const fail = (why: string): void => {
        violations.push({ from: name, to: targetName, why });
      };
      if (from.area === to.area && from.area !== "src") continue;
      if (to.area !== "src") {
        fail(from.area === "src" ? `src/ imports nothing outside it (here ${to.area}/)` : `${from.area}/ may import src/, not ${to.area}/`);
        continue;
      }
      if (from.area !== "src" || from.folder === null || to.folder === null || from.folder === to.folder) continue;
      const fromFloor = floorOf(from.folder);
      const toFloor = floorOf(to.folder);
      if (fromFloor < 0 || toFloor < 0) continue;
      if (toFloor > fromFloor)
        fail(`src/${from.folder}/ (floor ${fromFloor}) imports from a higher floor, src/${to.folder}/ (floor ${toFloor})`);
      else if (toFloor === fromFloor) fail(`src/${from.folder}/ and src/${to.folder}/ share floor ${fromFloor}: neither imports the other`);
    }
    graph.set(file, targets);
  }
  const circles = findCircles(graph).map((circle) => circle.map((file) => relative(root, file)));
  return { files: files.length, imports, violations, circles };
}

/** The report in words, one line a problem. */
export function describeLayerReport(report: LayerReport): string {
  const lines = [
    ...report.violations.map((violation) => `${violation.from} -> ${violation.to}: ${violation.why}`),
    ...report.circles.map((circle) => `circle of imports: ${circle.join(" <-> ")}`),
  ];
  const problems = report.violations.length + report.circles.length;
  lines.push(
    `${report.files} files, ${report.imports} relative imports: ` +
      `${problems === 0 ? "every import runs down, no circle" : `${problems} problem(s)`}`,
  );
  return lines.join("\n");
}
