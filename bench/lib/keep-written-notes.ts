/*
 * docs/bench-report.md is written by `npm run bench --out` (the figures) and by hand (how to read
 * them: what changed, the machine's floor, where the error comes from). The part written by hand
 * follows this marker and is kept when the bench writes new figures above it.
 */
export const NOTES_MARKER = "<!-- Written by hand from here on: `npm run bench -- --out docs/bench-report.md` keeps it. -->";

/** The new report, followed by the notes the previous file held after the marker (if any). */
export function keepWrittenNotes(report: string, previous: string): string {
  const at = previous.indexOf(NOTES_MARKER);
  if (at < 0) return report;
  return `${report.replace(/\n*$/, "\n\n")}${previous.slice(at)}`;
}
