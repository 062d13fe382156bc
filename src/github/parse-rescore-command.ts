import MarkdownIt from "markdown-it";

/*
 * `/rescore` is matched the way GitHub shows the comment, not on its raw text: the comment's first
 * block must be a paragraph whose text starts with the command. An indented `    /rescore` is a code
 * block, a fenced one is code, `> /rescore` quotes someone, `` `/rescore` `` is an inline code span:
 * none of them reads as a command on the pull request, so none starts a GPU run.
 */

export interface RescoreCommand {
  /** The commit the maintainer named (`/rescore <sha>`, 7 to 64 hex digits, lower case), or null. */
  sha: string | null;
}

const parser = new MarkdownIt("commonmark");
const COMMAND = /^\/rescore(?:[ \t]+(\S+))?(?:[ \t].*)?$/;
const SHA = /^[0-9a-f]{7,64}$/i;

export function parseRescoreCommand(body: string): RescoreCommand | null {
  const tokens = parser.parse(body, {});
  const first = tokens[0];
  if (first?.type !== "paragraph_open") return null;
  const inline = tokens[1];
  const lead = inline?.type === "inline" ? inline.children?.[0] : undefined;
  // The paragraph must open with plain text: not a code span, a link, an emphasis or an HTML tag.
  if (lead?.type !== "text") return null;
  const match = COMMAND.exec(lead.content.split("\n", 1)[0] ?? "");
  if (!match) return null;
  const word = match[1];
  return { sha: word !== undefined && SHA.test(word) ? word.toLowerCase() : null };
}
