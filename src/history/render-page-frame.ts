import { SPEEDGATE_VERSION } from "../version.js";
import { escapeHtml } from "./escape-html.js";
import type { PageLinks } from "./page-links.js";

/** The page's files besides its HTML: every one served by the app itself (or written beside the static site), none from a CDN. */
export const PAGE_ASSETS = {
  stylesheet: "pages.css",
  chartScript: "trend-chart.js",
  uplotScript: "uplot.iife.min.js",
  uplotStylesheet: "uplot.min.css",
} as const;

export interface PageFrame {
  title: string;
  links: PageLinks;
  /** The repository the page belongs to, for the navigation; null for none. */
  repository: string | null;
  /** Trusted HTML: every untrusted value in it was escaped by its renderer. */
  body: string;
  /** Whether the page draws charts (uPlot and the page's chart script are loaded). */
  charts: boolean;
}

/**
 * The frame of every history page: the navigation, the stylesheet, and the scripts as files (the
 * Content-Security-Policy runs no inline script). Everything is readable without JavaScript: the charts
 * draw over tables that hold the same figures.
 */
export function renderPageFrame(frame: PageFrame): string {
  const { links } = frame;
  const nav = frame.repository
    ? `<nav><a href="${escapeHtml(links.repository(frame.repository))}">${escapeHtml(frame.repository)}</a>` +
      ` · <a href="${escapeHtml(links.runners(frame.repository))}">Runners</a></nav>`
    : "";
  const styles = [
    `<link rel="stylesheet" href="${escapeHtml(links.asset(PAGE_ASSETS.stylesheet))}">`,
    ...(frame.charts ? [`<link rel="stylesheet" href="${escapeHtml(links.asset(PAGE_ASSETS.uplotStylesheet))}">`] : []),
  ];
  const scripts = frame.charts
    ? [
        `<script src="${escapeHtml(links.asset(PAGE_ASSETS.uplotScript))}"></script>`,
        `<script src="${escapeHtml(links.asset(PAGE_ASSETS.chartScript))}"></script>`,
      ]
    : [];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>${escapeHtml(frame.title)}</title>
${styles.join("\n")}
</head>
<body>
<header><strong>speedgate</strong> ${nav}</header>
<main>
${frame.body}
</main>
<footer>speedgate ${escapeHtml(SPEEDGATE_VERSION)}</footer>
${scripts.join("\n")}
</body>
</html>
`;
}
