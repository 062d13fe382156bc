import { formatTimes } from "../scoring/format-speedup.js";
import { escapeHtml, jsonForDataBlock } from "./escape-html.js";
import type { PageLinks } from "./page-links.js";
import { renderPageFrame } from "./render-page-frame.js";
import type { ChartData } from "./trend-chart-script.js";
import type { RepositoryPageData, ScenarioTrend, TrendPoint } from "./read-history-pages.js";

const KIND_WORDS: Record<TrendPoint["kind"], string> = {
  drift: "main against the good commit",
  probe: "bisection probe",
  parent: "bisection parent",
  merge: "merge against its parent",
};

function interval(low: number | null, high: number | null): string {
  return low !== null && high !== null ? `${formatTimes(low)} – ${formatTimes(high)}` : "—";
}

function scoreCell(score: number | null, failureKind: string | null): string {
  if (failureKind) return `✗ ${failureKind.replace(/_/g, " ")}`;
  return formatTimes(score);
}

function cardLink(links: PageLinks, cardId: string | null, text: string): string {
  return cardId ? `<a href="${escapeHtml(links.card(cardId))}">${escapeHtml(text)}</a>` : escapeHtml(text);
}

/** What the chart script reads (trend-chart-script.ts): each point's figures, what its tip says and its card's URL. */
function chartData(trend: ScenarioTrend, links: PageLinks): ChartData {
  const data: ChartData = {
    yLabel: "speedup ×",
    series: [
      { key: "drift", label: "main against the good commit", color: "#0969da", line: true },
      { key: "bisection", label: "bisection rounds", color: "#8250df", line: false },
      { key: "merge", label: "merges against their parent", color: "#bf8700", line: false },
    ],
    points: trend.points.map((point) => ({
      series: point.kind === "drift" ? "drift" : point.kind === "merge" ? "merge" : "bisection",
      y: point.failureKind ? null : point.score,
      low: point.low,
      high: point.high,
      tip:
        `${scoreCell(point.score, point.failureKind)} (${interval(point.low, point.high)}) · ${point.headSha.slice(0, 12)} · ` +
        `${KIND_WORDS[point.kind]}${point.committedAt ? ` · ${point.committedAt.slice(0, 10)}` : ""}`,
      label: point.committedAt ? point.committedAt.slice(5, 10) : point.headSha.slice(0, 7),
      card: point.cardId ? links.card(point.cardId) : null,
      change: point.changePoint !== null,
    })),
  };
  // A series with no point (no bisection ran, no merge was scored) is left out of the legend.
  return { ...data, series: data.series.filter((series) => data.points.some((point) => point.series === series.key)) };
}

function renderTrend(trend: ScenarioTrend, index: number, links: PageLinks): string {
  const name = trend.scenario ?? "the round";
  const drift = trend.points.filter((point) => point.kind === "drift");
  const newest = drift.at(-1);
  const changes = trend.points.filter((point) => point.changePoint);
  const rows = [...trend.points]
    .reverse()
    .map(
      (point) =>
        `<tr data-round="${point.roundId}"><td class="sha">${cardLink(links, point.cardId, point.headSha.slice(0, 12))}</td>` +
        `<td>${escapeHtml(point.committedAt ? point.committedAt.slice(0, 16).replace("T", " ") : "—")}</td>` +
        `<td>${escapeHtml(KIND_WORDS[point.kind])}${point.changePoint ? " · <strong>change point</strong>" : ""}</td>` +
        `<td class="num">${escapeHtml(scoreCell(point.score, point.failureKind))}</td>` +
        `<td class="num">${escapeHtml(interval(point.low, point.high))}</td></tr>`,
    );
  const summary = newest
    ? `Newest drift round: ${formatTimes(newest.score)} (${interval(newest.low, newest.high)}) at ` +
      `${newest.headSha.slice(0, 12)}; ${drift.length} drift rounds, ${changes.length} change point${changes.length === 1 ? "" : "s"}.`
    : `${trend.points.length} rounds, none of them a drift round.`;
  return `
<section class="trend">
<h3>${escapeHtml(name)}</h3>
<p class="legend-note">${escapeHtml(summary)} Each point is a round's median speedup of main's head against the last good commit, with its
95% interval as the band; bisection rounds and merges are marked apart, change points by a dashed line. Click a point for its card.</p>
<script type="application/json" id="trend-data-${index}">${jsonForDataBlock(chartData(trend, links))}</script>
<div class="chart" data-trend="trend-data-${index}" data-scenario="${escapeHtml(name)}"><div class="chart-tip" hidden></div></div>
<details class="data"><summary>The ${trend.points.length} rounds as a table</summary>
<table><thead><tr><th>Commit</th><th>Committed (UTC)</th><th>Round</th><th>Score</th><th>Interval</th></tr></thead>
<tbody>
${rows.join("\n")}
</tbody></table>
</details>
</section>`;
}

function renderBisections(data: RepositoryPageData): string {
  if (data.bisections.length === 0) return "<p>No bisection has run.</p>";
  const rows = data.bisections.map(
    (bisection) =>
      `<tr><td>${bisection.id}</td><td>${escapeHtml(bisection.scenario ?? "—")}</td><td>${escapeHtml(bisection.trigger)}</td>` +
      `<td class="sha">${escapeHtml(bisection.good.slice(0, 12))} … ${escapeHtml(bisection.bad.slice(0, 12))}</td>` +
      `<td>${escapeHtml(bisection.status)}</td><td>${escapeHtml(bisection.finding ?? "running")}</td></tr>`,
  );
  return (
    `<table><thead><tr><th>#</th><th>Scenario</th><th>Started by</th><th>Good … bad</th><th>Status</th><th>Finding</th></tr></thead>` +
    `<tbody>\n${rows.join("\n")}\n</tbody></table>`
  );
}

function verdictCell(passed: boolean, failureKind: string | null): string {
  if (failureKind) return `<span class="fail">✗ ${escapeHtml(failureKind.replace(/_/g, " "))}</span>`;
  return passed ? `<span class="pass">✅ passes</span>` : `<span class="fail">❌ does not pass</span>`;
}

function renderOpenPulls(data: RepositoryPageData, links: PageLinks): string {
  if (data.openPulls.length === 0) return "<p>No open pull request has a card.</p>";
  const rows = data.openPulls.map(
    (pull) =>
      `<tr data-pull="${pull.pullRequest}"><td>#${pull.pullRequest}</td><td>${verdictCell(pull.passed, pull.failureKind)}</td>` +
      `<td class="num">${cardLink(links, pull.cardId, formatTimes(pull.roundScore))}</td>` +
      `<td class="num">${escapeHtml(interval(pull.interval?.low ?? null, pull.interval?.high ?? null))}</td>` +
      `<td>${pull.scenarios ? `${pull.scenarios.passed} of ${pull.scenarios.total}` : "—"}</td>` +
      `<td class="sha">${escapeHtml(pull.headSha.slice(0, 12))}</td>` +
      `<td>${escapeHtml(pull.recordedAt.toISOString().slice(0, 16).replace("T", " "))}</td></tr>`,
  );
  return (
    `<table><thead><tr><th>Pull request</th><th>Latest verdict</th><th>Round score</th><th>Interval</th><th>Scenarios passed</th>` +
    `<th>Commit</th><th>Scored (UTC)</th></tr></thead><tbody>\n${rows.join("\n")}\n</tbody></table>`
  );
}

function renderLeaderboard(data: RepositoryPageData, links: PageLinks): string {
  if (!data.leaderboard) return "";
  const rows = data.leaderboard.map(
    (entry, index) =>
      `<tr><td>${index + 1}</td><td>#${entry.pullRequest}</td>` +
      `<td class="num">${cardLink(links, entry.cardId, scoreCell(entry.roundScore, entry.failureKind))}</td>` +
      `<td class="num">${escapeHtml(interval(entry.interval?.low ?? null, entry.interval?.high ?? null))}</td>` +
      `<td>${verdictCell(entry.passed, entry.failureKind)}</td>` +
      `<td>${entry.runs} run${entry.runs === 1 ? "" : "s"} of ${entry.commits} commit${entry.commits === 1 ? "" : "s"}</td>` +
      `<td class="sha">${escapeHtml(entry.headSha.slice(0, 12))}</td></tr>`,
  );
  return `
<h2>Leaderboard</h2>
<p class="lead">Each open pull request's median round score over all its runs, every commit's (the lower median), best first.</p>
<table><thead><tr><th>#</th><th>Pull request</th><th>Round score</th><th>Interval</th><th>Gate</th><th>Runs</th><th>Commit</th></tr></thead>
<tbody>
${rows.join("\n")}
</tbody></table>`;
}

/** A repository's page: main's trend per scenario, its bisections, the open pull requests' verdicts, the leaderboard where enabled. */
export function renderRepositoryPage(data: RepositoryPageData, links: PageLinks): string {
  const trends =
    data.trends.length === 0
      ? "<p>The watch has not scored main yet (docs/watching-main.md says how to start it).</p>"
      : data.trends.map((trend, index) => renderTrend(trend, index, links)).join("\n");
  const body = `
<h1>${escapeHtml(data.repository)}</h1>
<p class="lead">Main's speed over time, as speedgate's watch measured it, and every open pull request's latest card.</p>
<h2>Main's trend</h2>
${trends}
<h3>Bisections</h3>
${renderBisections(data)}
<h2>Open pull requests</h2>
${renderOpenPulls(data, links)}
${renderLeaderboard(data, links)}`;
  return renderPageFrame({
    title: `speedgate: ${data.repository}`,
    links,
    repository: data.repository,
    body,
    charts: data.trends.length > 0,
  });
}
