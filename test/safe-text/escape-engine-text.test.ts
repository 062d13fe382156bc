import MarkdownIt from "markdown-it";
import { describe, expect, it } from "vitest";
import { escapeCodeLine, escapeInline, neutralizeReferences } from "../../src/safe-text/escape-engine-text.js";
import { findRenderedReferences } from "../../harness/find-rendered-references.js";

const HOSTILE =
  "@octocat @org/team #12 octo/repo#34 GH-56 gh-7 https://github.com/octo/repo/issues/7 www.github.com/o/r/pull/8 " +
  "https://ghe.example.com/o/r/discussions/9";

describe("escape-engine-text: engine text on a card", () => {
  it("leaves no mention, reference or issue link in a CommonMark + GFM rendering, as text or in a table cell", () => {
    expect(findRenderedReferences(HOSTILE)).not.toEqual([]);
    expect(findRenderedReferences(escapeInline(HOSTILE))).toEqual([]);
    expect(findRenderedReferences(`| a | b |\n| - | - |\n| ${escapeInline(HOSTILE)} | x |`)).toEqual([]);
    // The entity GitHub renders back to `@`: escaped as text, never decoded into a mention.
    expect(findRenderedReferences(escapeInline("&#64;octocat"))).toEqual([]);
  });

  it("keeps the text readable: ordinary links, anchors and e-mail addresses stay as they were", () => {
    expect(neutralizeReferences("see https://docs.pytorch.org/notes.html#optimizing and a@b.c")).toBe(
      "see https://docs.pytorch.org/notes.html#optimizing and a@\u200bb.c",
    );
    expect(escapeInline("issue https://github.com/o/r/issues/7")).toBe("issue `https://github.com/o/r/issues/7`");
  });

  it("shows backslashes as the engine wrote them: they escape nothing that follows", () => {
    const renderer = new MarkdownIt();
    const shown = (markdown: string): string =>
      renderer
        .renderInline(markdown)
        .replace(/&lt;/g, "<")
        .replace(/&gt;/g, ">")
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, "&")
        .replace(/&#96;/g, "`")
        .replace(/&#91;/g, "[");
    for (const text of ["C:\\models\\<m>", "a\\|b", "\\`x\\`", "\\&lt; is not <", "ends with \\"]) {
      expect(shown(escapeInline(text))).toBe(text);
    }
  });

  it("never lets an HTML comment open or close, outside code or in a fenced log line", () => {
    expect(escapeInline("<!-- x -->")).toBe("&lt;!-- x --&gt;");
    expect(escapeCodeLine('<!-- speedgate-run {"runId":1} -->')).not.toMatch(/<!--|-->/);
  });
});
