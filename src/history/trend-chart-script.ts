/** A chart's data block, as the pages write it and the chart script reads it. */
export interface ChartData {
  yLabel: string;
  series: readonly { key: string; label: string; color: string; line: boolean }[];
  points: readonly {
    series: string;
    y: number | null;
    low: number | null;
    high: number | null;
    /** What hovering the point shows: its figures and its commit. */
    tip: string;
    /** The x axis' label under it. */
    label: string;
    /** Its card page, opened by a click. */
    card: string | null;
    /** A change point starts here: a dashed line is drawn through it. */
    change: boolean;
  }[];
}

/*
 * The pages' one script, served as a file (/static/trend-chart.js): the CSP runs no inline script. It
 * draws every `.chart` element's data block with uPlot (loaded before it, from the app itself): the
 * points of each series, the interval as a band, change points as dashed lines; hovering a point shows
 * its tip, clicking it opens its card. It records on the chart where it drew each point (data-points),
 * which the browser tests read to hover and click the points a reader would.
 */
export const TREND_CHART_SCRIPT = `(function () {
  "use strict";
  function drawChart(container) {
    var source = document.getElementById(container.getAttribute("data-trend"));
    if (!source || typeof uPlot !== "function") return;
    var data = JSON.parse(source.textContent);
    var points = data.points;
    var tip = container.querySelector(".chart-tip");
    var columns = [points.map(function (_, i) { return i; })];
    var series = [{}];
    data.series.forEach(function (s) {
      columns.push(points.map(function (p) { return p.series === s.key ? p.y : null; }));
      var options = { label: s.label, stroke: s.color, width: 1.5, spanGaps: true };
      options.points = { show: true, size: 7, fill: s.color, stroke: s.color };
      if (!s.line) options.paths = function () { return null; };
      series.push(options);
    });
    var low = columns.length;
    var banded = points.some(function (p) { return p.low !== null && p.high !== null; });
    if (banded) {
      columns.push(points.map(function (p) { return p.low; }));
      columns.push(points.map(function (p) { return p.high; }));
      series.push({ label: "interval low", stroke: "rgba(9,105,218,0.3)", width: 1, spanGaps: true, points: { show: false } });
      series.push({ label: "interval high", stroke: "rgba(9,105,218,0.3)", width: 1, spanGaps: true, points: { show: false } });
    }
    var changes = [];
    points.forEach(function (p, i) { if (p.change) changes.push(i); });
    function record(u) {
      var drawn = [];
      points.forEach(function (p, i) {
        if (p.y === null) return;
        drawn.push({ i: i, x: Math.round(u.valToPos(i, "x")), y: Math.round(u.valToPos(p.y, "y")), card: p.card, tip: p.tip });
      });
      container.setAttribute("data-points", JSON.stringify(drawn));
      container.setAttribute("data-drawn", String(drawn.length));
    }
    function drawChanges(u) {
      var ctx = u.ctx;
      ctx.save();
      ctx.strokeStyle = "#d1242f";
      ctx.lineWidth = 1.5 * devicePixelRatio;
      ctx.setLineDash([6 * devicePixelRatio, 4 * devicePixelRatio]);
      changes.forEach(function (i) {
        var x = Math.round(u.valToPos(i, "x", true));
        ctx.beginPath();
        ctx.moveTo(x, u.bbox.top);
        ctx.lineTo(x, u.bbox.top + u.bbox.height);
        ctx.stroke();
      });
      ctx.restore();
    }
    function showTip(u) {
      var i = u.cursor.idx;
      if (i === null || i === undefined || !points[i] || points[i].y === null) { tip.hidden = true; return; }
      var over = u.over.getBoundingClientRect();
      var frame = container.getBoundingClientRect();
      tip.textContent = points[i].tip;
      var x = u.valToPos(i, "x");
      // Past the middle the tip opens to the left of the point, so it stays on the page.
      tip.classList.toggle("chart-tip-left", x > u.over.clientWidth / 2);
      tip.style.left = (over.left - frame.left + x) + "px";
      tip.style.top = (over.top - frame.top + u.valToPos(points[i].y, "y")) + "px";
      tip.hidden = false;
    }
    var chart = new uPlot({
      width: Math.max(container.clientWidth, 480),
      height: 280,
      scales: { x: { time: false } },
      legend: { live: false },
      series: series,
      bands: banded ? [{ series: [low + 1, low], fill: "rgba(9,105,218,0.12)" }] : [],
      axes: [
        { values: function (u, splits) {
          return splits.map(function (v) { var p = points[v]; return Number.isInteger(v) && p ? p.label : ""; });
        } },
        { label: data.yLabel },
      ],
      hooks: { draw: [drawChanges, record], setCursor: [showTip] },
    }, columns, container);
    chart.over.addEventListener("mouseleave", function () { tip.hidden = true; });
    chart.over.addEventListener("click", function () {
      var i = chart.cursor.idx;
      if (i !== null && i !== undefined && points[i] && points[i].card) window.location.assign(points[i].card);
    });
  }
  document.querySelectorAll(".chart[data-trend]").forEach(drawChart);
})();
`;
