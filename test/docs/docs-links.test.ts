import { existsSync, statSync } from "node:fs";
import { readFile, readdir } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/*
 * The README is the landing page and the reference lives in docs/ (issue #23): every relative link
 * in them must reach a file, and every #anchor a heading of that file as GitHub names it, or a reader
 * following the README lands on a 404 or the top of a long page.
 */

const root = fileURLToPath(new URL("../../", import.meta.url));
/** The landing page's budget: it says what speedgate is and links the rest. */
const README_MAX_WORDS = 3_000;

async function markdownFiles(): Promise<string[]> {
  const files = ["README.md"];
  for (const dir of ["docs", "examples"]) {
    for (const entry of await readdir(join(root, dir), { recursive: true })) if (entry.endsWith(".md")) files.push(join(dir, entry));
  }
  return files;
}

/** The text a reader sees: no fenced code, no inline code, no HTML comments. */
function prose(markdown: string): string {
  return markdown
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/^(```|~~~)[\s\S]*?^\1/gm, "")
    .replace(/`[^`\n]*`/g, "`code`");
}

/** GitHub's heading ids (github-slugger): lowercase, punctuation dropped, spaces to hyphens, repeats numbered. */
function headingIds(markdown: string): Set<string> {
  const ids = new Set<string>();
  const seen = new Map<string, number>();
  const text = markdown.replace(/<!--[\s\S]*?-->/g, "").replace(/^(```|~~~)[\s\S]*?^\1/gm, "");
  for (const match of text.matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const base = (match[1] ?? "")
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    ids.add(count === 0 ? base : `${base}-${count}`);
  }
  return ids;
}

async function brokenLinks(file: string): Promise<string[]> {
  const markdown = await readFile(join(root, file), "utf8");
  const broken: string[] = [];
  for (const match of prose(markdown).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?: "[^"]*")?\)/g)) {
    const target = match[1] ?? "";
    if (/^[a-z][a-z+.-]*:/i.test(target)) continue;
    const [path = "", anchor] = target.split("#");
    const resolved = path === "" ? join(root, file) : resolve(dirname(join(root, file)), decodeURI(path));
    if (!resolved.startsWith(root) || !existsSync(resolved)) {
      broken.push(`${file}: ${target} (no ${relative(root, resolved)})`);
      continue;
    }
    if (anchor && resolved.endsWith(".md") && statSync(resolved).isFile() && !headingIds(await readFile(resolved, "utf8")).has(anchor)) {
      broken.push(`${file}: ${target} (no heading #${anchor} in ${relative(root, resolved)})`);
    }
  }
  return broken;
}

describe("the README and docs/", () => {
  it("link only to files that exist and headings that are there", async () => {
    const files = await markdownFiles();
    expect(files.length).toBeGreaterThan(20);
    const broken = (await Promise.all(files.map(brokenLinks))).flat();
    expect(broken).toEqual([]);
  });

  it("would catch a link to a moved section (the checker is live)", () => {
    expect(
      headingIds("# The round config\n## Keeping the prompt set private (competitions)\n## `docker.ipc`: host\n## Same\n## Same\n"),
    ).toEqual(new Set(["the-round-config", "keeping-the-prompt-set-private-competitions", "dockeripc-host", "same", "same-1"]));
  });

  it(`keep the README a landing page of at most ${README_MAX_WORDS} words that links each reference page`, async () => {
    const readme = await readFile(join(root, "README.md"), "utf8");
    const words = prose(readme)
      .split(/\s+/)
      .filter((word) => /\w/.test(word)).length;
    expect(words).toBeLessThanOrEqual(README_MAX_WORDS);
    for (const page of [
      "score-your-engine.md",
      "config-reference.md",
      "cli.md",
      "action.md",
      "app.md",
      "scoring-statistics.md",
      "security-model.md",
      "bench-report.md",
      "engines.md",
    ]) {
      expect(readme).toContain(`](docs/${page})`);
    }
    expect(readme).toContain("![A passing card");
    expect(readme).toContain("(docs/images/card-passing-round.png)");
  });
});
