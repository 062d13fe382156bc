import { writeFile } from "node:fs/promises";
import { renderMarkdown } from "../src/scorecard/render/render-markdown.js";
import { EXAMPLES_DIR, buildExampleCards } from "./lib/build-example-cards.js";

/** Regenerates examples/cards/*.json and *.md from the current code; test/scripts checks they are current. */
for (const { name, card } of await buildExampleCards()) {
  await writeFile(new URL(`${name}.json`, EXAMPLES_DIR), `${JSON.stringify(card, null, 2)}\n`, "utf8");
  await writeFile(new URL(`${name}.md`, EXAMPLES_DIR), renderMarkdown(card), "utf8");
  process.stdout.write(`examples/cards/${name}.json and .md\n`);
}
