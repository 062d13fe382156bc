import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { CLOSED_NETWORK_CHROMIUM_FLAGS } from "./closed-network-chromium-flags.js";
import { COMMENT_WIDTH_PX } from "./render-card-html.js";

const CHROMIUM_FLAGS = [
  ...CLOSED_NETWORK_CHROMIUM_FLAGS,
  "--allow-file-access-from-files",
  "--hide-scrollbars",
  // Virtual time runs the page's scripts (Mermaid) to completion before the DOM is read or the shot taken.
  "--virtual-time-budget=20000",
];

function run(binary: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(binary, args, { maxBuffer: 64 * 1024 * 1024, timeout: 120_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${binary} ${args.at(-1) ?? ""} failed: ${error.message}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

/** What the page recorded of the card once its charts were drawn (scripts/lib/render-card-html.ts). */
export interface CardMeasure {
  /** The comment frame's height. */
  heightPx: number;
  /** The text a reader sees in the first screen, whitespace collapsed. */
  firstScreenText: string;
  /** Each top-level block of the card: where it starts and ends, below the frame's top. */
  blocks: Array<{ tag: string; top: number; bottom: number; text: string }>;
}

function readMeasure(dom: string): CardMeasure {
  const encoded = /data-measure="([^"]*)"/.exec(dom)?.[1];
  if (!encoded) throw new Error("the page recorded no measure of the card: did its script run?");
  return JSON.parse(Buffer.from(encoded, "base64").toString("utf8")) as CardMeasure;
}

/**
 * A PNG of a local HTML page in headless Chromium, cut to the page's height: a first pass reads the
 * height (and the card's measure) the page recorded once its charts were drawn, the second takes the
 * shot at that size. Without `outPath` only the measure is taken.
 */
export async function screenshotHtml(
  html: string,
  outPath: string | null,
  options: { chromium?: string; widthPx?: number } = {},
): Promise<CardMeasure> {
  const chromium = options.chromium ?? process.env.CHROMIUM ?? "chromium";
  const dir = await mkdtemp(join(tmpdir(), "speedgate-shot-"));
  try {
    const page = join(dir, "card.html");
    await writeFile(page, html, "utf8");
    const url = pathToFileURL(page).href;
    const profile = (name: string): string => `--user-data-dir=${join(dir, name)}`;
    const dom = await run(chromium, [...CHROMIUM_FLAGS, profile("measure"), "--window-size=1200,800", "--dump-dom", url]);
    const error = /data-error="([^"]*)"/.exec(dom)?.[1];
    if (error) throw new Error(`Mermaid could not draw a chart: ${error}`);
    const height = Number(/data-height="(\d+)"/.exec(dom)?.[1]);
    if (!Number.isFinite(height) || height <= 0) throw new Error("the page never reported its height: did Mermaid load?");
    const measure = readMeasure(dom);
    if (outPath === null) return measure;
    const width = (options.widthPx ?? COMMENT_WIDTH_PX) + 32;
    await run(chromium, [...CHROMIUM_FLAGS, profile("shoot"), `--window-size=${width},${height + 16}`, `--screenshot=${outPath}`, url]);
    return measure;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
