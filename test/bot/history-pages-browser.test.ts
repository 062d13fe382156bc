import type { BrowserContext, Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";
import { describeVerdict } from "../../src/scorecard/render/describe-card.js";
import { formatTimes } from "../../src/scoring/format-speedup.js";
import { chromiumAvailable, launchChromium } from "../support/launch-chromium.js";
import { usePagesBot } from "../support/fake-github/use-pages-bot.js";

/*
 * Issue #42 in a real browser: Debian's Chromium, driven by playwright-core, against `npm run bot`
 * over a store seeded with main's rounds and pull requests' cards. The trend chart draws its points
 * (where the script says it drew one, the canvas has the series' colour), hovering one shows its score
 * and commit, clicking it opens its card, whose figures are the point's; a private repository's page
 * sends a signed-out visitor to GitHub's sign-in and refuses a signed-in user without access. Every
 * wait is for a selector, a URL or an attribute: nothing sleeps.
 */

interface DrawnPoint {
  i: number;
  x: number;
  y: number;
  card: string | null;
  tip: string;
}

/** Runs in the page (the tests' TypeScript has no DOM types): the canvas pixel under each drawn point. */
const READ_PIXELS = `(drawn) => {
  const chart = document.querySelector(".chart");
  const canvas = chart.querySelector("canvas");
  const over = chart.querySelector(".u-over");
  const context = canvas.getContext("2d");
  const scale = canvas.width / canvas.getBoundingClientRect().width;
  const dx = over.getBoundingClientRect().left - canvas.getBoundingClientRect().left;
  const dy = over.getBoundingClientRect().top - canvas.getBoundingClientRect().top;
  return drawn.map((point) => [...context.getImageData(Math.round((dx + point.x) * scale), Math.round((dy + point.y) * scale), 1, 1).data]);
}`;

describe.skipIf(!chromiumAvailable())("the history pages in Chromium", () => {
  const { bot, seeded, flow, fake } = usePagesBot({
    repositories: [
      { owner: "acme", repo: "open", private: false, readers: [], mainRounds: 30 },
      { owner: "acme", repo: "secret", private: true, readers: ["alice"], mainRounds: 8 },
    ],
  });
  let browser: BrowserContext | null = null;
  const cspErrors: string[] = [];
  afterEach(async () => {
    await browser?.close();
    browser = null;
    expect(cspErrors).toEqual([]);
    cspErrors.length = 0;
  });
  const open = async (): Promise<Page> => {
    browser = await launchChromium();
    const page = await browser.newPage();
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) cspErrors.push(message.text());
    });
    page.on("pageerror", (error) => cspErrors.push(`page error: ${error.message}`));
    return page;
  };
  const drawnPoints = async (page: Page): Promise<DrawnPoint[]> => {
    const chart = await page.waitForSelector(".chart[data-points]");
    return JSON.parse((await chart.getAttribute("data-points")) ?? "[]") as DrawnPoint[];
  };
  /** Where point `point` is on the screen: the chart's plotting area plus its offset there. */
  const screenOf = async (page: Page, point: DrawnPoint): Promise<{ x: number; y: number }> => {
    const over = await page.locator(".chart .u-over").first().boundingBox();
    if (!over) throw new Error("the chart has no plotting area");
    return { x: over.x + point.x, y: over.y + point.y };
  };

  it("draws main's trend, shows a point's score and commit on hover, and opens its card on a click", async () => {
    const history = seeded().get("acme/open");
    if (!history) throw new Error("acme/open was not seeded");
    const page = await open();
    await page.goto(`${bot().baseUrl}/repos/acme/open`);
    const drawn = await drawnPoints(page);
    // Every round is drawn: main's drift rounds and the bisection's probes (its own colour).
    expect(drawn).toHaveLength(history.mainRounds.length + history.probes.length);
    expect(drawn.filter((point) => point.tip.includes("bisection probe"))).toHaveLength(history.probes.length);
    const points = drawn.filter((point) => point.tip.includes("main against the good commit"));

    // Where the script says it drew each drift point, the canvas holds the drift series' blue (#0969da).
    const colours = await page.evaluate<number[][]>(`(${READ_PIXELS})(${JSON.stringify(points)})`);
    expect(colours).toHaveLength(points.length);
    for (const [red, green, blue] of colours) {
      expect(Math.abs((red ?? 0) - 9) + Math.abs((green ?? 0) - 105) + Math.abs((blue ?? 0) - 218)).toBeLessThan(60);
    }

    // The first round after the slowdown: hover shows its score and commit.
    const round = history.mainRounds.find((candidate) => candidate.roundId === history.changeRoundId);
    const point = points.find((candidate) => round && candidate.tip.includes(round.headSha.slice(0, 12)));
    if (!round || !point) throw new Error("the change point's round was not drawn");
    const at = await screenOf(page, point);
    await page.mouse.move(at.x, at.y);
    const tip = page.locator(".chart-tip:not([hidden])").first();
    await tip.waitFor();
    const text = (await tip.textContent()) ?? "";
    expect(text).toContain(formatTimes(round.score));
    expect(text).toContain(round.headSha.slice(0, 12));

    await Promise.all([page.waitForURL(`**/cards/${round.cardId}`), page.mouse.click(at.x, at.y)]);
    expect(await page.locator('[data-figure="round-score"]').textContent()).toBe(formatTimes(round.score));
    expect(await page.locator('[data-figure="interval"]').textContent()).toContain(
      `${formatTimes(round.low)} – ${formatTimes(round.high)}`,
    );
    expect(await page.locator("h1").textContent()).toContain("main");
  });

  it("shows an open pull request's card with the card's own numbers, the whole of it", async () => {
    const pull = seeded().get("acme/open")?.pulls.get("scenarios-decode-regression");
    if (!pull) throw new Error("the scenario card was not seeded");
    const page = await open();
    await page.goto(`${bot().baseUrl}/repos/acme/open`);
    // The table works without the script: its link is a plain one.
    await Promise.all([page.waitForURL(`**/cards/${pull.cardId}`), page.click(`tr[data-pull="${pull.pullRequest}"] a`)]);
    const { card } = pull;
    expect(await page.locator('[data-figure="round-score"]').textContent()).toBe(formatTimes(card.roundScore));
    expect(await page.locator('[data-figure="prompts"]').textContent()).toBe(`${card.promptsScored} of ${card.promptsTotal}`);
    expect(await page.locator('[data-figure="verdict"]').textContent()).toBe(describeVerdict(card).headline);
    const body = (await page.locator(".card-body").textContent()) ?? "";
    for (const scenario of card.scenarios ?? []) expect(body).toContain(scenario.name);
    for (const prompt of card.prompts) expect(body).toContain(prompt.id);
  });

  it("sends a signed-out visitor of a private repository to sign in with GitHub, and refuses a signed-in user without access", async () => {
    const page = await open();
    flow().signedInAs = null;
    await page.goto(`${bot().baseUrl}/repos/acme/secret`);
    await page.waitForSelector("#github-sign-in");
    const url = new URL(page.url());
    expect(url.origin + url.pathname).toBe(`${fake.url}/login/oauth/authorize`);
    expect(await page.content()).not.toContain("acme/secret");

    // Bob signs in to GitHub; the app brings him back to the page, which is not his to see.
    flow().signedInAs = "bob";
    const refused = await page.goto(`${bot().baseUrl}/repos/acme/secret`);
    expect(refused?.status()).toBe(403);
    expect(new URL(page.url()).pathname).toBe("/repos/acme/secret");
    expect(await page.locator("h1").textContent()).toBe("No access");
    expect(await page.locator(".chart").count()).toBe(0);

    // Alice may read it: the same page, drawn.
    await browser?.clearCookies();
    flow().signedInAs = "alice";
    await page.goto(`${bot().baseUrl}/repos/acme/secret`);
    const secret = seeded().get("acme/secret");
    expect(await drawnPoints(page)).toHaveLength((secret?.mainRounds.length ?? -1) + (secret?.probes.length ?? 0));
  });
});
