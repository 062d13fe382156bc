/*
 * Whether a unified diff is well formed: each hunk follows a file header (--- and +++) and holds
 * exactly the old and new lines its @@ header counts. git apply and GNU patch refuse a patch that
 * breaks this ("corrupt patch at line N") or, worse, stop reading at the counted end and drop what
 * follows; either way it is a broken file, not a patch that does not fit the baseline, so it is
 * refused before anything starts instead of becoming a patch_conflict card.
 */

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

interface OpenHunk {
  line: number;
  old: number;
  new: number;
}

const quote = (line: string): string => JSON.stringify(line.length > 60 ? `${line.slice(0, 60)}…` : line);

/** The first structural problem of a unified diff, naming its line (1-based), or null when there is none. */
export function findDiffCorruption(text: string): string | null {
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  let hunk: OpenHunk | null = null;
  let haveFileHeader = false;
  // The line right after a hunk that ended: hunk lines there are past the count, which the tools drop.
  let justEnded: OpenHunk | null = null;
  for (let index = 0; index < lines.length; index += 1) {
    const line = (lines[index] ?? "").replace(/\r$/, "");
    const number = index + 1;
    if (hunk) {
      const first = line[0];
      // An empty line is a context line whose space an editor or mailer stripped; both tools accept it.
      if (first === " " || line === "") {
        hunk.old -= 1;
        hunk.new -= 1;
      } else if (first === "-") hunk.old -= 1;
      else if (first === "+") hunk.new -= 1;
      else if (first === "\\") continue;
      else {
        return (
          `line ${number}: expected a line of the hunk at line ${hunk.line} (starting with a space, "+" or "-"; ${hunk.old} old and ` +
          `${hunk.new} new lines still to come), got ${quote(line)}`
        );
      }
      if (hunk.old < 0 || hunk.new < 0) {
        return (
          `line ${number}: the hunk at line ${hunk.line} has more ${hunk.old < 0 ? "old (context and -)" : "new (context and +)"} ` +
          `lines than its header counts`
        );
      }
      if (hunk.old === 0 && hunk.new === 0) {
        justEnded = hunk;
        hunk = null;
      }
      continue;
    }
    const after = justEnded;
    justEnded = null;
    const header = HUNK_HEADER.exec(line);
    if (header) {
      if (!haveFileHeader) return `line ${number}: a hunk without a file header before it (the "--- a/file" and "+++ b/file" lines)`;
      hunk = { line: number, old: header[2] === undefined ? 1 : Number(header[2]), new: header[4] === undefined ? 1 : Number(header[4]) };
      if (hunk.old === 0 && hunk.new === 0) return `line ${number}: a hunk header that counts no lines`;
      continue;
    }
    if (line.startsWith("@@")) return `line ${number}: expected a hunk header such as "@@ -12,7 +12,8 @@", got ${quote(line)}`;
    if (line.startsWith("diff --git ")) haveFileHeader = false;
    if (line.startsWith("--- ") && (lines[index + 1] ?? "").startsWith("+++ ")) {
      haveFileHeader = true;
      index += 1;
      continue;
    }
    // "-- " is the signature separator git format-patch ends a mail with; a file header was handled above.
    if (after && line !== "-- " && /^[-+ ]/.test(line)) {
      return `line ${number}: a hunk line after the hunk at line ${after.line} ended (its header counts fewer lines than it holds)`;
    }
  }
  if (hunk) {
    return (
      `the hunk at line ${hunk.line} is cut short: ${hunk.old} old and ${hunk.new} new lines its header counts are missing at the end ` +
      `of the patch`
    );
  }
  return null;
}
