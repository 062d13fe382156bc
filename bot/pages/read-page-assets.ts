import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { PAGES_STYLESHEET } from "../../src/history/pages-stylesheet.js";
import { PAGE_ASSETS } from "../../src/history/render-page-frame.js";
import { TREND_CHART_SCRIPT } from "../../src/history/trend-chart-script.js";

/*
 * The files the pages load, all served by the app itself (no CDN): the stylesheet and the chart script
 * from src/history, and uPlot (https://github.com/leeoniya/uPlot, MIT, about 50 KB minified, made for
 * time series with bands and no dependencies) from the installed package, read once.
 */
export interface PageAsset {
  contentType: string;
  body: Buffer;
}

const require = createRequire(import.meta.url);

export async function readPageAssets(): Promise<Map<string, PageAsset>> {
  const [uplotScript, uplotStylesheet] = await Promise.all([
    readFile(require.resolve("uplot/dist/uPlot.iife.min.js")),
    readFile(require.resolve("uplot/dist/uPlot.min.css")),
  ]);
  return new Map<string, PageAsset>([
    [PAGE_ASSETS.stylesheet, { contentType: "text/css; charset=utf-8", body: Buffer.from(PAGES_STYLESHEET) }],
    [PAGE_ASSETS.chartScript, { contentType: "text/javascript; charset=utf-8", body: Buffer.from(TREND_CHART_SCRIPT) }],
    [PAGE_ASSETS.uplotScript, { contentType: "text/javascript; charset=utf-8", body: uplotScript }],
    [PAGE_ASSETS.uplotStylesheet, { contentType: "text/css; charset=utf-8", body: uplotStylesheet }],
  ]);
}
