import { readFile, readdir } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { describeVerdict } from "../../src/scorecard/render/describe-card.js";
import { describeIntervalBriefly, describePromptCounts } from "../../src/scorecard/render/describe-summary.js";
import { describeWhoActs } from "../../src/scorecard/render/describe-who-acts.js";
import { parseScorecardJson } from "../../src/scorecard/read-scorecard.js";
import { describeSpeedLead } from "../../src/scorecard/render/render-speed-section.js";
import type { Scorecard } from "../../src/scorecard/scorecard-schema.js";
import { EXPANDED_CARDS, SCREENSHOT_KEYS, markdownSha256, screenshotFile } from "../../scripts/lib/card-screenshots.js";
import { readPngSize, readPngText, writePngText } from "../../scripts/lib/png-text-chunks.js";
import { COMMENT_WIDTH_PX, FIRST_SCREEN_PX } from "../../scripts/lib/render-card-html.js";

/*
 * docs/images/card-*.png are screenshots of examples/cards/*.md (npm run screenshots). Each records
 * the sha256 of the Markdown it was taken from and the text its first 900 px showed; this test
 * reads them back without a browser, so a card whose Markdown changed without a new picture fails
 * here, and so does a layout whose first screen no longer holds what a reader needs.
 */

const EXAMPLES = new URL("../../examples/cards/", import.meta.url);
const IMAGES = new URL("../../docs/images/", import.meta.url);

const names = (await readdir(EXAMPLES))
  .filter((file) => file.endsWith(".md"))
  .map((file) => file.slice(0, -3))
  .sort();
const shots = [
  ...names.map((name) => ({ name, folds: "closed" as const })),
  ...EXPANDED_CARDS.map((name) => ({ name, folds: "open" as const })),
];

async function screenshot(name: string, folds: "closed" | "open"): Promise<{ png: Buffer; text: Record<string, string> }> {
  const png = await readFile(new URL(screenshotFile(name, folds), IMAGES));
  return { png, text: readPngText(png) };
}

const collapse = (text: string): string => text.replace(/\s+/g, " ").trim();
/** What the first screen shows of a piece of the card's text: Markdown emphasis and code marks are not shown. */
const shown = (text: string): string => collapse(text.replace(/\*\*|`/g, ""));

async function firstScreen(name: string): Promise<{ card: Scorecard; text: string }> {
  const card = parseScorecardJson(await readFile(new URL(`${name}.json`, EXAMPLES), "utf8"), name);
  const { text } = await screenshot(name, "closed");
  return { card, text: text[SCREENSHOT_KEYS.firstScreenText] ?? "" };
}

describe("the screenshots of the example cards", () => {
  it("include the demo, passing, OOM, busy-runner and baseline-failure cards", () => {
    expect(names).toEqual(
      expect.arrayContaining(["demo", "passing-round", "candidate-cuda-oom", "candidate-cuda-oom-busy-runner", "baseline-nccl-error"]),
    );
  });

  it.each(shots.map((shot) => [screenshotFile(shot.name, shot.folds), shot] as const))(
    "%s was taken from the card's current Markdown (npm run screenshots retakes it)",
    async (_file, { name, folds }) => {
      const markdown = await readFile(new URL(`${name}.md`, EXAMPLES));
      const { png, text } = await screenshot(name, folds);
      expect(text[SCREENSHOT_KEYS.source]).toBe(`examples/cards/${name}.md`);
      expect(
        text[SCREENSHOT_KEYS.markdownSha256],
        `examples/cards/${name}.md changed since docs/images/${screenshotFile(name, folds)} was taken: run npm run screenshots`,
      ).toBe(markdownSha256(markdown));
      expect(text[SCREENSHOT_KEYS.folds]).toBe(folds);
      expect(text[SCREENSHOT_KEYS.widthPx]).toBe(String(COMMENT_WIDTH_PX));
      expect(text[SCREENSHOT_KEYS.firstScreenPx]).toBe(String(FIRST_SCREEN_PX));
      // The picture is the whole comment: as wide as GitHub's, as tall as the page measured it.
      const size = readPngSize(png);
      expect(size.width).toBeGreaterThanOrEqual(COMMENT_WIDTH_PX);
      expect(size.height).toBeGreaterThanOrEqual(Number(text[SCREENSHOT_KEYS.heightPx]));
    },
  );

  it.each(["demo", "passing-round", "calibrated-three-runs", "large-round"])(
    "%s shows in its first 900 px the verdict, the score, its interval, the prompts counted and the speed line",
    async (name) => {
      const { card, text } = await firstScreen(name);
      expect(text).toContain(shown(describeVerdict(card, { firstReasonOnly: true }).headline));
      expect(text).toContain(`Round score ${card.roundScore?.toFixed(2)}×`);
      expect(text).toContain(describeIntervalBriefly(card));
      expect(text).toContain(shown(describePromptCounts(card)));
      expect(text).toContain(shown(describeSpeedLead(card)));
      expect(text).toMatch(/Gate (✅ passes|❌ does not pass)/);
    },
  );

  it("the demo card, which does not pass, says in its first 900 px why and what to do", async () => {
    const { text } = await firstScreen("demo");
    expect(text).toContain("What now Find why the candidate stops early on 2 prompts");
  });

  it.each(["candidate-cuda-oom", "candidate-cuda-oom-busy-runner", "baseline-nccl-error", "candidate-crash-mid-round"])(
    "%s shows in its first 900 px the cause and the paragraph for whoever must act, before any count",
    async (name) => {
      const { card, text } = await firstScreen(name);
      expect(text).toContain(shown(describeVerdict(card, { firstReasonOnly: true }).headline));
      const who = describeWhoActs(card);
      expect(who).not.toBeNull();
      expect(text).toContain(shown(`${who?.lead ?? ""} ${who?.text ?? ""}`));
      expect(text).toContain(`Error ${collapse(card.failure?.summary ?? "")}`);
      // No row of zero counts stands between the headline and the cause.
      expect(text).not.toMatch(/Below tolerance|Zeroed|Median agreement/);
    },
  );
});

describe("PNG text chunks", () => {
  // The smallest PNG there is: 1×1, one grey pixel.
  const tiny = Buffer.from(
    "89504e470d0a1a0a0000000d49484452000000010000000108000000003a7e9b55" +
      "0000000a49444154789c636800000082008177cd72b60000000049454e44ae426082",
    "hex",
  );

  it("round-trip UTF-8 text, replace an entry of the same keyword, and keep the image readable", () => {
    const once = writePngText(tiny, { "speedgate:a": "✅ 1.24× — 中", "speedgate:b": "x" });
    const twice = writePngText(once, { "speedgate:a": "again" });
    expect(readPngText(once)).toEqual({ "speedgate:a": "✅ 1.24× — 中", "speedgate:b": "x" });
    expect(readPngText(twice)).toEqual({ "speedgate:a": "again", "speedgate:b": "x" });
    expect(readPngSize(twice)).toEqual({ width: 1, height: 1 });
    expect(twice.subarray(-12).toString("latin1", 4, 8)).toBe("IEND");
  });

  it("refuses what is not a PNG", () => {
    expect(() => readPngText(Buffer.from("GIF89a"))).toThrow(/not a PNG/);
  });
});
