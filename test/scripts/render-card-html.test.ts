import { describe, expect, it } from "vitest";
import { renderAlerts, renderCardHtml } from "../../scripts/lib/render-card-html.js";

/* #39: the screenshot helper printed a card's `> [!WARNING]` literally, where GitHub draws an alert box. */
describe("renderCardHtml: GitHub's alerts", () => {
  it("draws a blockquote opening with [!WARNING] as GitHub's warning box, without the marker", () => {
    const html = renderCardHtml("> [!WARNING]\n> **Queue-bound**: the score measures the queue.\n");
    expect(html).toContain('<div class="markdown-alert markdown-alert-warning"');
    expect(html).toContain('<p class="markdown-alert-title" style="color: #9a6700">Warning</p><p><strong>Queue-bound</strong>: the score');
    expect(html).not.toContain("[!WARNING]");
  });

  it("leaves a plain blockquote a blockquote", () => {
    expect(renderAlerts("<blockquote>\n<p>a quote [!WARNING]</p>\n</blockquote>\n")).toBe(
      "<blockquote>\n<p>a quote [!WARNING]</p>\n</blockquote>\n",
    );
  });
});
