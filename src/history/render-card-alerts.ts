/** GitHub's alert kinds, their titles and colours (its light theme). */
const ALERTS: Record<string, { title: string; color: string }> = {
  NOTE: { title: "Note", color: "#0969da" },
  TIP: { title: "Tip", color: "#1a7f37" },
  IMPORTANT: { title: "Important", color: "#8250df" },
  WARNING: { title: "Warning", color: "#9a6700" },
  CAUTION: { title: "Caution", color: "#d1242f" },
};

/**
 * GitHub renders a blockquote that opens with `[!WARNING]` (or NOTE, TIP, IMPORTANT, CAUTION) as an alert box: a
 * coloured bar and title instead of the marker. markdown-it knows no alerts and printed "[!WARNING]" as text (#39).
 */
export function renderAlerts(html: string): string {
  return html.replace(
    /<blockquote>\s*<p>\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]\s*(?:<br>\s*)?([\s\S]*?)<\/blockquote>/g,
    (_match, kind: string, rest: string) => {
      const alert = ALERTS[kind] ?? { title: kind, color: "#59636e" };
      return (
        `<div class="markdown-alert markdown-alert-${kind.toLowerCase()}" style="border-left-color: ${alert.color}">` +
        `<p class="markdown-alert-title" style="color: ${alert.color}">${alert.title}</p><p>${rest}</div>`
      );
    },
  );
}
