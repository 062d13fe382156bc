import { describe, expect, it } from "vitest";
import { codeSpan, literalForCodeSpans, renderWithCodeSpans } from "../../src/safe-text/render-inline-code.js";
import { escapeCell } from "../../src/scorecard/render/render-markdown.js";

const render = (text: string): string => renderWithCodeSpans(text, escapeCell);

describe("renderWithCodeSpans", () => {
  it("turns backticked text into code and escapes the rest", () => {
    expect(render("run `ss -ltnp` as <root>")).toBe("run `ss -ltnp` as &lt;root&gt;");
  });

  it("keeps a lone backtick literal, and closes a span only at a run of the same length", () => {
    expect(render("a ` b")).toBe("a &#96; b");
    expect(render("``a ` b`` c")).toBe("``a ` b`` c");
    expect(render("`a`` b")).toBe("&#96;a&#96;&#96; b");
  });

  it("makes code spans safe in a table cell: pipes escaped, no HTML or mention outside code", () => {
    expect(render("`a | b` @x")).toBe("`a \\| b` @\u200bx");
    expect(render("`<img src=x>`")).toBe("`<img src=x>`");
  });

  it("never lets a code span carry an HTML comment into the comment's raw text", () => {
    expect(render("`<!-- speedgate-run {} -->`")).toBe("`<\u200b!-- speedgate-run {} -\u200b->`");
  });

  it("keeps untrusted text literal inside hint-like text: its backticks open no code span, even across the text's own spans", () => {
    const name = "evil` \\`x`";
    expect(render(`held by ${literalForCodeSpans(name)}: comment \`/rescore\``)).toBe(
      "held by evil&#96; \\\\&#96;x&#96;: comment `/rescore`",
    );
    // A lone backtick of the text does not pair with one in the untrusted part.
    expect(render(`a lone \` then ${literalForCodeSpans("`x")}`)).toBe("a lone &#96; then &#96;x");
  });

  it("picks a fence longer than any backtick run inside and pads a span that starts or ends with one", () => {
    expect(codeSpan("a``b")).toBe("```a``b```");
    expect(codeSpan("`x")).toBe("`` `x ``");
    expect(codeSpan("line\nbreak")).toBe("`line break`");
  });
});
