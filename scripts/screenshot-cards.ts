import { mkdir, readFile, readdir, writeFile } from "node:fs/promises";
import { EXPANDED_CARDS, SCREENSHOT_KEYS, markdownSha256, screenshotFile } from "./lib/card-screenshots.js";
import { writePngText } from "./lib/png-text-chunks.js";
import { COMMENT_WIDTH_PX, FIRST_SCREEN_PX, renderCardHtml } from "./lib/render-card-html.js";
import { screenshotHtml } from "./lib/screenshot-html.js";

/*
 * Screenshots of every example card as a pull request shows it, for the docs: examples/cards/*.md
 * rendered as GitHub renders Markdown (GitHub's stylesheet, Mermaid charts, an 880 px comment) in
 * headless Chromium. Each PNG records the hash of the Markdown it was taken from and what its first
 * 900 px showed, which test/scripts/card-screenshots.test.ts checks. Needs Debian's chromium
 * (apt-get install chromium) or CHROMIUM=/path/to/chrome. Run `npm run examples` first when the
 * card's code changed. Prints where each block of each card starts and ends.
 */

const examples = new URL("../examples/cards/", import.meta.url);
const images = new URL("../docs/images/", import.meta.url);

const names = (await readdir(examples))
  .filter((file) => file.endsWith(".md"))
  .map((file) => file.slice(0, -3))
  .sort();
await mkdir(images, { recursive: true });
const shots = [
  ...names.map((name) => ({ name, folds: "closed" as const })),
  ...EXPANDED_CARDS.map((name) => ({ name, folds: "open" as const })),
];
for (const { name, folds } of shots) {
  const markdown = await readFile(new URL(`${name}.md`, examples));
  const file = screenshotFile(name, folds);
  const path = new URL(file, images).pathname;
  const measure = await screenshotHtml(renderCardHtml(markdown.toString("utf8"), { openDetails: folds === "open" }), path);
  const png = writePngText(await readFile(path), {
    [SCREENSHOT_KEYS.source]: `examples/cards/${name}.md`,
    [SCREENSHOT_KEYS.markdownSha256]: markdownSha256(markdown),
    [SCREENSHOT_KEYS.folds]: folds,
    [SCREENSHOT_KEYS.widthPx]: String(COMMENT_WIDTH_PX),
    [SCREENSHOT_KEYS.firstScreenPx]: String(FIRST_SCREEN_PX),
    [SCREENSHOT_KEYS.firstScreenText]: measure.firstScreenText,
    [SCREENSHOT_KEYS.heightPx]: String(measure.heightPx),
  });
  await writeFile(path, png);
  process.stdout.write(`docs/images/${file}: ${measure.heightPx} px\n`);
  for (const block of measure.blocks) {
    const mark = block.top < FIRST_SCREEN_PX ? (block.bottom <= FIRST_SCREEN_PX ? "*" : "~") : " ";
    process.stdout.write(
      `  ${mark} ${String(block.top).padStart(5)}–${String(block.bottom).padEnd(5)} ${block.tag.padEnd(7)} ${block.text}\n`,
    );
  }
}
