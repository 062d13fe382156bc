/** The history pages' stylesheet, served as a file (/static/pages.css): the CSP allows no inline style. */
export const PAGES_STYLESHEET = `
:root { color-scheme: light; --border: #d0d7de; --muted: #59636e; --pass: #1a7f37; --fail: #d1242f; --none: #9a6700; }
* { box-sizing: border-box; }
body { margin: 0; color: #1f2328;
  font: 14px/1.5 -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif, "Noto Color Emoji"; }
header { padding: 10px 24px; background: #f6f8fa; border-bottom: 1px solid var(--border); }
header nav { display: inline; margin-left: 12px; }
main { max-width: 1100px; margin: 0 auto; padding: 16px 24px 48px; }
footer { color: var(--muted); padding: 16px 24px; border-top: 1px solid var(--border); font-size: 12px; }
a { color: #0969da; text-decoration: none; } a:hover { text-decoration: underline; }
h1 { font-size: 24px; margin: 8px 0 4px; }
h2 { font-size: 18px; margin: 28px 0 8px; border-bottom: 1px solid var(--border); padding-bottom: 4px; }
h3 { font-size: 15px; margin: 18px 0 6px; }
.lead { color: var(--muted); margin: 0 0 12px; }
table { border-collapse: collapse; margin: 8px 0 16px; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid var(--border); padding: 4px 10px; text-align: left; vertical-align: top; }
th { background: #f6f8fa; font-weight: 600; }
td.num { text-align: right; }
code, .sha { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
.pass { color: var(--pass); font-weight: 600; }
.fail { color: var(--fail); font-weight: 600; }
.none { color: var(--none); font-weight: 600; }
.figures { display: flex; flex-wrap: wrap; gap: 12px; margin: 12px 0; }
.figure { border: 1px solid var(--border); border-radius: 6px; padding: 8px 14px; min-width: 150px; }
.figure .label { color: var(--muted); font-size: 12px; } .figure .value { font-size: 20px; font-weight: 600; }
.chart { position: relative; margin: 8px 0 4px; min-height: 40px; }
.chart-tip { position: absolute; pointer-events: none; background: #1f2328; color: #fff; padding: 4px 8px; border-radius: 4px;
  font-size: 12px; white-space: nowrap; z-index: 10; transform: translate(12px, -110%); }
.chart-tip-left { transform: translate(calc(-100% - 12px), -110%); }
.chart-tip[hidden] { display: none; }
.legend-note { color: var(--muted); font-size: 12px; margin: 0 0 8px; }
details.data > summary { cursor: pointer; color: var(--muted); }
.card-body { border: 1px solid var(--border); border-radius: 6px; padding: 16px 20px; }
.card-body pre { background: #f6f8fa; padding: 10px; overflow-x: auto; }
.card-body table { display: block; overflow-x: auto; }
.markdown-alert { padding: 8px 16px; margin-bottom: 16px; border-left: 0.25em solid var(--border); }
.markdown-alert-warning { border-left-color: #9a6700; } .markdown-alert-caution { border-left-color: #d1242f; }
.markdown-alert-note { border-left-color: #0969da; } .markdown-alert-tip { border-left-color: #1a7f37; }
.markdown-alert-important { border-left-color: #8250df; }
.markdown-alert-title { font-weight: 600; margin: 0 0 4px; }
.signin { max-width: 520px; margin: 48px auto; border: 1px solid var(--border); border-radius: 6px; padding: 24px; }
.button { display: inline-block; background: #1f883d; color: #fff; padding: 6px 16px; border-radius: 6px; font-weight: 600; }
`;
