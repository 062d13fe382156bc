import { describe, expect, it } from "vitest";
import { makeCard } from "../../harness/make-card.js";
import { jsonForDataBlock } from "../../src/history/escape-html.js";
import { APP_PAGE_LINKS, staticPageLinks } from "../../src/history/page-links.js";
import type { RepositoryPageData, TrendPoint } from "../../src/history/read-history-pages.js";
import { renderCardMarkdownHtml } from "../../src/history/render-card-markdown-html.js";
import { renderCardPage } from "../../src/history/render-card-page.js";
import { renderRepositoryPage } from "../../src/history/render-repository-page.js";
import { renderRunnerPage } from "../../src/history/render-runner-page.js";
import { formatTimes } from "../../src/scoring/format-speedup.js";

/*
 * The history pages' HTML (#42), without a server: what a card or a store could carry into a page is
 * text, never markup or script; the data the chart reads cannot close its element; the pages' links
 * follow their host (the app's paths, the static site's relative files); every figure is in a table.
 */

const NO_INLINE_SCRIPT = /<script(?![^>]*\bsrc=)(?![^>]*type="application\/json")[^>]*>/;

function point(index: number, fields: Partial<TrendPoint> = {}): TrendPoint {
  return {
    roundId: index + 1,
    kind: "drift",
    headSha: `${index}`.padStart(40, "a"),
    committedAt: `2026-10-${String(index + 1).padStart(2, "0")}T00:00:00.000Z`,
    score: 1 + index / 100,
    low: 0.98 + index / 100,
    high: 1.02 + index / 100,
    cardId: `card${String(index).padStart(18, "0")}`,
    runUrl: null,
    bisectionId: null,
    failureKind: null,
    changePoint: null,
    ...fields,
  };
}

function repositoryData(fields: Partial<RepositoryPageData> = {}): RepositoryPageData {
  return {
    repository: "acme/engine",
    trends: [
      { scenario: "chat", points: [point(0), point(1, { changePoint: { pValue: 0.01, change: 0.9 } }), point(2, { kind: "probe" })] },
    ],
    bisections: [],
    openPulls: [],
    leaderboard: null,
    ...fields,
  };
}

describe("the history pages' HTML", () => {
  it("shows a card's raw HTML as text, keeping only the bare tags the card writes", () => {
    const html = renderCardMarkdownHtml(
      [
        "## Card",
        "",
        '<img src="https://attacker.example/x" onerror="alert(1)">',
        "",
        "<details><summary>Prompts</summary>",
        "",
        'a <script>alert(2)</script> b <a href="javascript:alert(3)">x</a> [link](javascript:alert(4))',
        "",
        "</details>",
      ].join("\n"),
    );
    expect(html).not.toMatch(/<img|<script|<a href="javascript|onerror="/);
    expect(html).toContain("&lt;img src=");
    expect(html).toContain("&lt;script&gt;alert(2)&lt;/script&gt;");
    expect(html).toContain("<details><summary>Prompts</summary>");
  });

  it("keeps the chart's data inside its element whatever a value holds", () => {
    const block = jsonForDataBlock({ scenario: "</script><script>alert(1)</script>" });
    expect(block).not.toContain("</script>");
    expect(JSON.parse(block)).toEqual({ scenario: "</script><script>alert(1)</script>" });
    const page = renderRepositoryPage(repositoryData({ trends: [{ scenario: "</script><b>x", points: [point(0)] }] }), APP_PAGE_LINKS);
    expect(page).not.toMatch(NO_INLINE_SCRIPT);
    expect(page).not.toContain("</script><b>");
  });

  it("puts every point of main's trend in a table that needs no script, each linking its card, the change point marked", () => {
    const page = renderRepositoryPage(repositoryData(), APP_PAGE_LINKS);
    for (const index of [0, 1, 2]) {
      const row = new RegExp(`<tr data-round="${index + 1}">.*</tr>`).exec(page)?.[0] ?? "";
      expect(row).toContain(`href="/cards/card${String(index).padStart(18, "0")}"`);
      expect(row).toContain(formatTimes(1 + index / 100));
      expect(row).toContain(`${formatTimes(0.98 + index / 100)} – ${formatTimes(1.02 + index / 100)}`);
    }
    expect(page).toMatch(/<tr data-round="2">.*change point/);
    expect(page).toMatch(/<tr data-round="3">.*bisection probe/);
    expect(page).toContain('<script src="/static/uplot.iife.min.js"></script>');
    expect(page).not.toMatch(NO_INLINE_SCRIPT);
    expect(page).not.toContain("http://");
    expect(page).not.toContain("https://");
  });

  it("links relative files on the static site", () => {
    const page = renderRepositoryPage(repositoryData(), staticPageLinks(3));
    expect(page).toContain('href="../../../cards/card000000000000000000.html"');
    expect(page).toContain('src="../../../static/trend-chart.js"');
    expect(page).toContain('href="../../../repos/acme/engine/runners.html"');
  });

  it("shows the leaderboard only where the repository keeps one", () => {
    expect(renderRepositoryPage(repositoryData(), APP_PAGE_LINKS)).not.toContain("Leaderboard");
    const page = renderRepositoryPage(
      repositoryData({
        leaderboard: [
          {
            pullRequest: 7,
            headSha: "f".repeat(40),
            roundScore: 1.2,
            interval: { low: 1.1, high: 1.3 },
            passed: true,
            failureKind: null,
            runs: 3,
            commits: 2,
            cardId: null,
          },
        ],
      }),
      APP_PAGE_LINKS,
    );
    expect(page).toContain("<h2>Leaderboard</h2>");
    expect(page).toContain("3 runs of 2 commits");
  });

  it("shows the whole card, every prompt row the comment would cut, with its figures first", () => {
    const card = makeCard(Array.from({ length: 400 }, (_, index) => ({ speedup: 1.1 + (index % 7) / 100 })));
    const page = renderCardPage({
      id: "x".repeat(22),
      repository: "acme/engine",
      pullRequest: 5,
      headSha: "b".repeat(40),
      runId: 9,
      runAttempt: 1,
      recordedAt: new Date("2026-11-01T00:00:00Z"),
      card,
      links: APP_PAGE_LINKS,
    });
    expect(page).toContain(`data-figure="round-score">${formatTimes(card.roundScore)}<`);
    expect(page).toContain(`data-figure="prompts">${card.promptsScored} of ${card.promptsTotal}<`);
    for (const prompt of card.prompts) expect(page).toContain(prompt.id);
    expect(page).toContain(`href="/cards/${"x".repeat(22)}.json"`);
    expect(page).not.toMatch(NO_INLINE_SCRIPT);
  });

  it("lists each runner's calibrations, newest first, with its noise floor and smallest detectable speedup", () => {
    const calibration = (measuredAt: string, noiseFloor: number, detectableSpeedup: number) => ({
      runner: "gpu-runner-3",
      gpu: "H100",
      measuredAt,
      noiseFloor,
      detectableSpeedup,
      rounds: 2,
      firstUsedAt: new Date(measuredAt),
      lastUsedAt: new Date(measuredAt),
      cardId: "c".repeat(22),
    });
    const page = renderRunnerPage(
      {
        repository: "acme/engine",
        calibrations: [calibration("2026-10-01T00:00:00Z", 0.031, 0.04), calibration("2026-11-01T00:00:00Z", 0.018, 0.025)],
      },
      APP_PAGE_LINKS,
    );
    expect(page).toContain("<h2>gpu-runner-3</h2>");
    const rows = [...page.matchAll(/<tr><td>(2026-1\d-01)/g)].map((match) => match[1]);
    expect(rows).toEqual(["2026-11-01", "2026-10-01"]);
    expect(page).toContain("3.1%");
    expect(page).toContain('<td class="num">2.5%</td>');
  });
});
