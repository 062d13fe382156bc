import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";

/** One floor of an area: its name, and the places on it, lowest floor first. */
export interface Floor {
  name: string;
  /**
   * A place is a folder of the area (with everything below it), "." for the files directly in the area,
   * or one of those files by name ("server.ts"), which then stands on that floor instead of with ".".
   */
  folders: readonly string[];
}

/*
 * The floors of src/, lowest first: a file may import from its own folder and from folders on lower
 * floors, never from a higher floor or from another folder of its own floor. This list is the one place
 * the order is written; docs/architecture.md draws it, and a test checks the drawing against it.
 * Files directly in src/ (the logger, the clock, the version) stand on the ground floor as ".".
 */
export const FLOORS: readonly Floor[] = [
  { name: "ground: shared nouns", folders: [".", "vocabulary"] },
  { name: "inputs and text", folders: ["safe-text", "patch", "git", "prompts", "tokens"] },
  { name: "rules", folders: ["scoring", "failure"] },
  { name: "measurements", folders: ["metrics", "calibration", "sim-engine"] },
  { name: "round config", folders: ["config"] },
  { name: "card and client", folders: ["scorecard", "client"] },
  { name: "changes, stored cards and main's watch", folders: ["commits", "shard", "store", "watch"] },
  { name: "runtimes and GitHub", folders: ["engine", "github", "history"] },
  { name: "containers", folders: ["docker"] },
  { name: "the round", folders: ["round"] },
  { name: "commands", folders: ["cli"] },
];

/*
 * The app's floors: its parts (ledgers, caches, guards, payload schemas) import nothing of the app above
 * them; the work queue runs any job and knows no handler; the store ties the queue and the ledgers to
 * memory or the database; the handlers (and what they share: the app's state, the intake, the opener of
 * a stored job) use all of those; index.ts wires the handlers into a Probot app, and server.ts runs it.
 */
export const BOT_FLOORS: readonly Floor[] = [
  { name: "parts", folders: [".", "payloads"] },
  { name: "work queue", folders: ["work"] },
  { name: "store", folders: ["store"] },
  { name: "handlers", folders: ["handlers"] },
  { name: "pages", folders: ["pages"] },
  { name: "the app", folders: ["index.ts"] },
  { name: "the server", folders: ["server.ts"] },
];

/* The test harness: fixtures and what every builder uses, then the builders, none importing another, then try-app over them. */
export const HARNESS_FLOORS: readonly Floor[] = [
  { name: "ground", folders: [".", "fixtures"] },
  { name: "builders and fakes", folders: ["cli-bundle", "docker", "fake-github", "git", "llama-cpp", "sim-engine"] },
  { name: "try-app", folders: ["try-app"] },
];

/* The bench: its helpers, the bad-input corpus's inputs, then the benches and their runner. */
export const BENCH_FLOORS: readonly Floor[] = [
  { name: "helpers", folders: ["lib"] },
  { name: "inputs", folders: ["bad-input"] },
  { name: "benches", folders: ["."] },
];

/* The scripts: their library (which the tests import), then the commands. */
export const SCRIPTS_FLOORS: readonly Floor[] = [
  { name: "library", folders: ["lib"] },
  { name: "commands", folders: ["."] },
];

/*
 * The areas of the repository, lowest first, with the same rule one level up: an area imports its own
 * files and the areas on lower floors, never a higher one or another of its own floor. The hosts and the
 * scripts stand on the core; the harness (the fake GitHub, the test engine image, llama.cpp's files, the
 * CLI bundle, the reference engine's round and card builders) serves both the bench and the tests, so
 * it stands below both; the tests check everything, the bench's own code included.
 */
export const AREAS: ReadonlyArray<{ name: string; areas: readonly string[] }> = [
  { name: "the core", areas: ["src"] },
  { name: "hosts and scripts", areas: ["action", "bot", "scripts"] },
  { name: "the harness", areas: ["harness"] },
  { name: "figures", areas: ["bench"] },
  { name: "tests", areas: ["test"] },
];

/** The areas that have floors inside, and the name of the list that writes them (for the messages). */
const INNER_FLOORS: Readonly<Record<string, { floors: readonly Floor[]; list: string }>> = {
  src: { floors: FLOORS, list: "FLOORS" },
  bot: { floors: BOT_FLOORS, list: "BOT_FLOORS" },
  harness: { floors: HARNESS_FLOORS, list: "HARNESS_FLOORS" },
  bench: { floors: BENCH_FLOORS, list: "BENCH_FLOORS" },
  scripts: { floors: SCRIPTS_FLOORS, list: "SCRIPTS_FLOORS" },
};

export interface LayerViolation {
  from: string;
  to: string;
  why: string;
}

export interface LayerReport {
  files: number;
  /** How many files each area has that the check read, lowest area first. */
  areas: Record<string, number>;
  imports: number;
  violations: LayerViolation[];
  /** Each circle of files importing each other (type-only imports count), as paths from the root. */
  circles: string[][];
}

const SOURCE_EXTENSIONS = [".ts", ".mts", ".mjs"];

function listSources(folder: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules") found.push(...listSources(path));
    } else if (SOURCE_EXTENSIONS.some((extension) => entry.name.endsWith(extension)) && !entry.name.endsWith(".d.ts")) found.push(path);
  }
  return found;
}

/** A specifier's file: foo.js is foo.ts when that exists (TypeScript's NodeNext convention), foo.mjs foo.mts. */
function resolveSpecifier(file: string, specifier: string): string {
  const path = resolve(dirname(file), specifier);
  const typescript = path.replace(/\.js$/, ".ts").replace(/\.mjs$/, ".mts");
  return typescript !== path && existsSync(typescript) ? typescript : path;
}

/** The relative imports of one file (static, dynamic, re-exports, type-only), resolved to their files. */
function readImports(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
  return info.importedFiles
    .map((reference) => reference.fileName)
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => resolveSpecifier(file, specifier));
}

/**
 * Where a file stands: its area (the repository's top folder: "src", "bot", "test"…) and its place in
 * that area: the folder under the area, "." for a file directly in it, or the file's own name where the
 * area's floors name it.
 */
function placeOf(root: string, file: string): { area: string; place: string } {
  const parts = relative(root, file).split(sep);
  const area = parts[0] ?? "";
  if (parts.length > 2) return { area, place: parts[1] ?? "." };
  const name = parts[1] ?? ".";
  const named = INNER_FLOORS[area]?.floors.some((floor) => floor.folders.includes(name)) ?? false;
  return { area, place: named ? name : "." };
}

function floorIn(floors: readonly Floor[], place: string): number {
  return floors.findIndex((floor) => floor.folders.includes(place));
}

function areaFloorOf(area: string): number {
  return AREAS.findIndex((floor) => floor.areas.includes(area));
}

/** How a place is named in a message: src/scoring/, src/*.ts, bot/server.ts. */
function describePlace(area: string, place: string): string {
  if (place === ".") return `${area}/*.ts`;
  return place.includes(".") ? `${area}/${place}` : `${area}/${place}/`;
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

/** Why an import from one area to another breaks the areas' order, or null where it runs down. */
function crossAreaProblem(from: string, to: string): string | null {
  const fromFloor = areaFloorOf(from);
  const toFloor = areaFloorOf(to);
  if (toFloor < 0) return `${from}/ imports ${to}/, which is in no area of AREAS in scripts/lib/import-layers.ts`;
  if (toFloor < fromFloor) return null;
  if (from === "src") return `src/ imports nothing outside it (here ${to}/)`;
  if (toFloor === fromFloor) return `${from}/ and ${to}/ share a floor (${AREAS[toFloor]?.name}): neither imports the other`;
  return `${from}/ (${AREAS[fromFloor]?.name}) imports from a higher area, ${to}/ (${AREAS[toFloor]?.name})`;
}

/** Why an import between two places of one area breaks the area's floors, or null where it runs down. */
function innerProblem(area: string, from: string, to: string): string | null {
  const floors = INNER_FLOORS[area]?.floors;
  if (!floors || from === to) return null;
  const fromFloor = floorIn(floors, from);
  const toFloor = floorIn(floors, to);
  if (fromFloor < 0 || toFloor < 0) return null;
  const [fromName, toName] = [describePlace(area, from), describePlace(area, to)];
  if (toFloor > fromFloor) return `${fromName} (floor ${fromFloor}) imports from a higher floor, ${toName} (floor ${toFloor})`;
  if (toFloor === fromFloor) return `${fromName} and ${toName} share floor ${fromFloor}: neither imports the other`;
  return null;
}

/**
 * Checks every import of every area against the areas' order and each area's own floors, and looks for
 * circles of files. An area that is not there (a tree without a bench) is skipped.
 */
export function checkImportLayers(root: string): LayerReport {
  const areas: Record<string, number> = {};
  const files = AREAS.flatMap((floor) => floor.areas).flatMap((area) => {
    const found = existsSync(join(root, area)) ? listSources(join(root, area)) : [];
    areas[area] = found.length;
    return found;
  });
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  const violations: LayerViolation[] = [];
  let imports = 0;
  for (const file of files) {
    const from = placeOf(root, file);
    const name = relative(root, file);
    const inner = INNER_FLOORS[from.area];
    if (inner && floorIn(inner.floors, from.place) < 0) {
      const where = describePlace(from.area, from.place);
      violations.push({ from: name, to: name, why: `${where} is on no floor: add it to ${inner.list} in scripts/lib/import-layers.ts` });
    }
    const targets: string[] = [];
    for (const target of readImports(file)) {
      imports++;
      if (known.has(target)) targets.push(target);
      const to = placeOf(root, target);
      const why = from.area === to.area ? innerProblem(from.area, from.place, to.place) : crossAreaProblem(from.area, to.area);
      if (why !== null) violations.push({ from: name, to: relative(root, target), why });
    }
    graph.set(file, targets);
  }
  const circles = findCircles(graph).map((circle) => circle.map((file) => relative(root, file)));
  return { files: files.length, areas, imports, violations, circles };
}

/** The report in words, one line a problem. */
export function describeLayerReport(report: LayerReport): string {
  const lines = [
    ...report.violations.map((violation) => `${violation.from} -> ${violation.to}: ${violation.why}`),
    ...report.circles.map((circle) => `circle of imports: ${circle.join(" <-> ")}`),
  ];
  const problems = report.violations.length + report.circles.length;
  const perArea = Object.entries(report.areas).map(([area, files]) => `${area}/ ${files}`);
  lines.push(
    `${report.files} files (${perArea.join(", ")}), ${report.imports} relative imports: ` +
      `${problems === 0 ? "every import runs down, no circle" : `${problems} problem(s)`}`,
  );
  return lines.join("\n");
}
