import MarkdownIt from "markdown-it";
import { describe, expect, it } from "vitest";
import { escapeCodeLine, escapeInline, neutralizeReferences } from "../../src/safe-text/escape-engine-text.js";
import { CRASH_WITH_LINKS, EXCERPT_WITH_LINKS } from "../../harness/crash-with-links.js";
import { findRenderedMarkup, renderedText } from "../../harness/find-rendered-markup.js";
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

  it("keeps the text readable: neutralizeReferences leaves links and anchors as they were, escapeInline puts them in code spans", () => {
    expect(neutralizeReferences("see https://docs.pytorch.org/notes.html#optimizing and a@b.c")).toBe(
      "see https://docs.pytorch.org/notes.html#optimizing and a@\u200bb.c",
    );
    expect(escapeInline("issue https://github.com/o/r/issues/7")).toBe("issue `https://github.com/o/r/issues/7`");
    expect(escapeInline("see (https://docs.pytorch.org/notes.html#x).")).toBe("see (`https://docs.pytorch.org/notes.html#x`).");
  });

  it("links nothing and emphasises nothing: a crash line and an answer excerpt full of URLs and Markdown", () => {
    // What they render to unescaped, with GitHub's renderer settings: links, emphasis and strike-through.
    expect(findRenderedMarkup(CRASH_WITH_LINKS).map((markup) => markup.kind)).toEqual(
      expect.arrayContaining(["strong", "s", "em", "link"]),
    );
    expect(findRenderedMarkup(EXCERPT_WITH_LINKS).filter((markup) => markup.kind === "link").length).toBeGreaterThanOrEqual(22);
    for (const text of [CRASH_WITH_LINKS, EXCERPT_WITH_LINKS]) {
      expect(findRenderedMarkup(escapeInline(text))).toEqual([]);
      expect(findRenderedMarkup(`| a | b |\n| - | - |\n| ${escapeInline(text)} | x |`)).toEqual([]);
      expect(findRenderedMarkup(`## ${escapeInline(text)}\n\n- ${escapeInline(text)}\n\n**Error**: ${escapeInline(text)}`)).toEqual([
        { kind: "strong", target: "Error", text: "Error" },
      ]);
      // Literal: a reader sees every character the engine wrote (renderedText drops zero-width spaces), the URLs whole in code spans.
      expect(renderedText(escapeInline(text))).toBe(text.replaceAll("\u200b", ""));
    }
    expect(escapeInline(CRASH_WITH_LINKS)).toContain(
      "at `https://speedgate-approve.example/pr?id=1`\\_ or `www.speedgate-approve.example` (",
    );
  });

  it("keeps an underscore inside a word as it is (it emphasises nothing there) and escapes one at a word's edge", () => {
    expect(escapeInline("max_num_seqs a_b")).toBe("max_num_seqs a_b");
    expect(escapeInline("__init__ _x_")).toBe("\\_\\_init\\_\\_ \\_x\\_");
  });

  it("opens no heading, list or thematic break where it starts a list item (a changed file's name)", () => {
    for (const name of ["# APPROVED by the maintainers", "- [x] merged", "+ ok", "1. first", "2) second", "---"]) {
      const tokens = new MarkdownIt().parse(`- ${escapeInline(name)}`, {});
      expect(
        tokens.map((token) => token.type).filter((type) => /heading|ordered_list|hr/.test(type) || type === "bullet_list_open"),
      ).toEqual(["bullet_list_open"]);
      expect(renderedText(`- ${escapeInline(name)}`)).toBe(name);
    }
  });

  it("never puts a backtick in a code span: a URL with one is cut there, and links nothing either side", () => {
    const text = "go https://evil.example/a`b`c.example/d `www.e.example` f";
    const escaped = escapeInline(text);
    expect(findRenderedMarkup(escaped)).toEqual([]);
    expect(renderedText(escaped)).toBe(text);
    for (const span of escaped.match(/`[^`]*`/g) ?? []) expect(span.slice(1, -1)).not.toMatch(/&#96;/);
    expect(escaped).toBe("go `https://evil.example/a`&#96;b&#96;`c.example/d` &#96;`www.e.example`&#96; f");
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
