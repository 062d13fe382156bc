import { markdownTable } from "markdown-table";

/** A two-column table whose first pair is its header row, so no empty header bar shows above it. */
export function renderKeyValueTable(rows: string[][]): string {
  return markdownTable(rows, { alignDelimiters: false, align: ["l", "l"] });
}

/**
 * A section folded under its summary line, as GitHub renders <details>: closed until a reader opens it.
 * GitHub renders no Markdown in a summary line, so a code span's backticks would show as written: none are kept.
 */
export function renderFold(summary: string, body: string): string {
  return `<details><summary>${summary.replaceAll("`", "")}</summary>\n\n${body}\n\n</details>`;
}
