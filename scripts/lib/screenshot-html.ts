import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
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

/**
 * A PNG of a local HTML page in headless Chromium, cut to the page's height: a first pass reads the
 * height the page recorded once its charts were drawn, the second takes the shot at that size.
 */
export async function screenshotHtml(html: string, outPath: string, options: { chromium?: string; widthPx?: number } = {}): Promise<void> {
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
    const width = (options.widthPx ?? 900) + 32;
    await run(chromium, [...CHROMIUM_FLAGS, profile("shoot"), `--window-size=${width},${height + 16}`, `--screenshot=${outPath}`, url]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
