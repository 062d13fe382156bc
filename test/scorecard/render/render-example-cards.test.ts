import { readFile, readdir } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { parseScorecardJson } from "../../../src/scorecard/read-scorecard.js";
import { renderMarkdown } from "../../../src/scorecard/render/render-markdown.js";
import { renderText } from "../../../src/scorecard/render/render-text.js";

/*
 * The renderers pinned byte for byte on every shipped example card, read from its committed JSON:
 * the Markdown is the committed examples/cards/<name>.md (npm run examples writes both), the terminal
 * text a file snapshot beside this test (npx vitest run -u writes it). test/scripts/example-cards.test.ts
 * checks that the JSON is what the current code makes; together they say a change moved no card.
 */

const EXAMPLES = new URL("../../../examples/cards/", import.meta.url);
const names = (await readdir(EXAMPLES)).filter((file) => file.endsWith(".json")).map((file) => file.slice(0, -".json".length));

describe("the example cards, rendered from their committed JSON", () => {
  it("are all here, scenarios included", () => {
    expect(names).toContain("passing-round");
    expect(names).toContain("scenarios-decode-regression");
    expect(names.length).toBeGreaterThanOrEqual(9);
  });

  it.each(names)("%s renders as its committed Markdown and its text snapshot", async (name) => {
    const card = parseScorecardJson(await readFile(new URL(`${name}.json`, EXAMPLES), "utf8"), `${name}.json`);
    expect(renderMarkdown(card)).toBe(await readFile(new URL(`${name}.md`, EXAMPLES), "utf8"));
    await expect(renderText(card)).toMatchFileSnapshot(`__snapshots__/example-cards/${name}.txt`);
  });
});
