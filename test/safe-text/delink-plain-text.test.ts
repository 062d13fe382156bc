import { describe, expect, it } from "vitest";
import { delinkPlainText } from "../../src/safe-text/delink-plain-text.js";

/*
 * What a terminal, GitHub's job log viewer or a mail client links in plain text: a URL with a scheme,
 * a `www.` host, an e-mail address. (None of them links a bare domain; the Markdown card, which
 * markdown-it's linkify reads, puts those in code spans.)
 */
const PLAIN_TEXT_LINK = /\b[a-z][a-z0-9+.-]*:\/\/\S|\bwww\.\S|[\w.+-]+@[\p{L}\p{N}-]+\.\S/iu;

const CRASH_WITH_LINKS =
  "RuntimeError: maintainers approve at https://speedgate-approve.example/pr?id=1 or WWW.speedgate-approve.example " +
  "(mail review@speedgate-approve.example, ftp://t.example, HTTPS://X.EXAMPLE)";

describe("delinkPlainText", () => {
  it("leaves no URL, host or e-mail address a plain-text linkifier finds, and reads as it did", () => {
    expect(CRASH_WITH_LINKS).toMatch(PLAIN_TEXT_LINK);
    const delinked = delinkPlainText(CRASH_WITH_LINKS);
    expect(delinked).not.toMatch(PLAIN_TEXT_LINK);
    expect(delinked.replaceAll("\u200b", "")).toBe(CRASH_WITH_LINKS);
  });

  it("leaves text without links as it was", () => {
    expect(delinkPlainText("CUDA out of memory. Tried to allocate 136.00 MiB (engine.py:42)")).toBe(
      "CUDA out of memory. Tried to allocate 136.00 MiB (engine.py:42)",
    );
  });
});
