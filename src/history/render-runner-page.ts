import { escapeHtml, jsonForDataBlock } from "./escape-html.js";
import type { PageLinks } from "./page-links.js";
import { renderPageFrame } from "./render-page-frame.js";
import type { RunnerPageData } from "./read-history-pages.js";
import type { RunnerCalibration } from "../store/card-documents.js";
import type { ChartData } from "./trend-chart-script.js";

function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}

function chartData(calibrations: readonly RunnerCalibration[], links: PageLinks): ChartData {
  return {
    yLabel: "smallest detectable speedup, %",
    series: [{ key: "calibration", label: "smallest speedup a round detects", color: "#1a7f37", line: true }],
    points: calibrations.map((calibration) => ({
      series: "calibration",
      y: Math.round(calibration.detectableSpeedup * 1000) / 10,
      low: null,
      high: null,
      tip:
        `a ${percent(calibration.detectableSpeedup)} speedup detectable · noise floor ${percent(calibration.noiseFloor)} · ` +
        `measured ${calibration.measuredAt.slice(0, 10)}`,
      label: calibration.measuredAt.slice(5, 10),
      card: links.card(calibration.cardId),
      change: false,
    })),
  };
}

/** The runner page: each runner's calibrations over time, its noise floor and the smallest speedup a round there detects. */
export function renderRunnerPage(data: RunnerPageData, links: PageLinks): string {
  const byRunner = new Map<string, RunnerCalibration[]>();
  for (const calibration of data.calibrations) {
    const name = calibration.runner ?? "(unnamed runner)";
    byRunner.set(name, [...(byRunner.get(name) ?? []), calibration]);
  }
  const sections = [...byRunner.entries()].map(([runner, calibrations], index) => {
    const rows = [...calibrations]
      .reverse()
      .map(
        (calibration) =>
          `<tr><td>${escapeHtml(calibration.measuredAt.slice(0, 16).replace("T", " "))}</td>` +
          `<td>${escapeHtml(calibration.gpu ?? "—")}</td>` +
          `<td class="num">${escapeHtml(percent(calibration.noiseFloor))}</td>` +
          `<td class="num">${escapeHtml(percent(calibration.detectableSpeedup))}</td>` +
          `<td class="num">${calibration.rounds}</td>` +
          `<td><a href="${escapeHtml(links.card(calibration.cardId))}">newest card</a></td></tr>`,
      );
    return `
<section class="runner">
<h2>${escapeHtml(runner)}</h2>
<script type="application/json" id="runner-data-${index}">${jsonForDataBlock(chartData(calibrations, links))}</script>
<div class="chart" data-trend="runner-data-${index}" data-runner="${escapeHtml(runner)}"><div class="chart-tip" hidden></div></div>
<table><thead><tr><th>Measured (UTC)</th><th>GPU</th><th>Noise floor</th><th>Smallest detectable speedup</th><th>Rounds gated by it</th>
<th>Card</th></tr></thead>
<tbody>
${rows.join("\n")}
</tbody></table>
</section>`;
  });
  const body = `
<h1>Runners of ${escapeHtml(data.repository)}</h1>
<p class="lead">Each calibration the rounds' gates used (speedgate calibrate: the baseline against itself): the noise floor a
speedup must clear, and the smallest speedup a round on that runner detects, over time.</p>
${sections.length > 0 ? sections.join("\n") : "<p>No round of this repository was gated by a calibration yet.</p>"}`;
  return renderPageFrame({
    title: `speedgate: runners of ${data.repository}`,
    links,
    repository: data.repository,
    body,
    charts: sections.length > 0,
  });
}
