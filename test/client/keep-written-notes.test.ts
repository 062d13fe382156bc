import { describe, expect, it } from "vitest";
import { NOTES_MARKER, keepWrittenNotes } from "../../bench/lib/keep-written-notes.js";

describe("keepWrittenNotes (docs/bench-report.md's notes survive a new bench run)", () => {
  it("replaces the figures and keeps everything from the marker on", () => {
    const previous = `# report\n\n| old | table |\n\n${NOTES_MARKER}\n\n## How to read the figures\n\nBusy poll…\n`;
    expect(keepWrittenNotes("# report\n\n| new | table |\n", previous)).toBe(
      `# report\n\n| new | table |\n\n${NOTES_MARKER}\n\n## How to read the figures\n\nBusy poll…\n`,
    );
  });

  it("writes the figures alone when there is no previous file or no marker in it", () => {
    expect(keepWrittenNotes("# report\n", "")).toBe("# report\n");
    expect(keepWrittenNotes("# report\n", "# an old report without notes\n")).toBe("# report\n");
  });

  it("marks docs/bench-report.md, so its notes are kept", async () => {
    const { readFile } = await import("node:fs/promises");
    expect(await readFile(new URL("../../docs/bench-report.md", import.meta.url), "utf8")).toContain(NOTES_MARKER);
  });
});
