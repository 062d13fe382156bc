import { mkdir, readFile } from "node:fs/promises";
import { renderCardHtml } from "./lib/render-card-html.js";
import { screenshotHtml } from "./lib/screenshot-html.js";

/*
 * Screenshots of the example cards as a pull request shows them, for the docs: examples/cards/*.md
 * rendered as GitHub renders Markdown (GitHub's stylesheet, Mermaid charts) in headless Chromium.
 * Needs Debian's chromium (apt-get install chromium) or CHROMIUM=/path/to/chrome. Run
 * `npm run examples` first when the card's code changed.
 */

const CARDS = ["passing-round", "calibrated-three-runs", "large-round", "candidate-cuda-oom", "candidate-cuda-oom-busy-runner"];
const examples = new URL("../examples/cards/", import.meta.url);
const images = new URL("../docs/images/", import.meta.url);

await mkdir(images, { recursive: true });
// The busy-runner card is also shown with its folds open, for the GPU state table in Provenance.
const shots = [...CARDS.map((name) => ({ name, open: false })), { name: "candidate-cuda-oom-busy-runner", open: true }];
for (const { name, open } of shots) {
  const markdown = await readFile(new URL(`${name}.md`, examples), "utf8");
  const file = `card-${name}${open ? "-expanded" : ""}.png`;
  await screenshotHtml(renderCardHtml(markdown, { openDetails: open }), new URL(file, images).pathname);
  process.stdout.write(`docs/images/${file}\n`);
}
