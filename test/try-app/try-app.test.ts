import { readFile, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable, launchChromium } from "../support/launch-chromium.js";
import { type TryApp, startTryApp } from "../../harness/try-app/start-try-app.js";

/*
 * #39: `npm run try-app` shows a team what the app does before it registers anything: the app (`npm run bot`) against
 * the local GitHub fake, with a pull request page a browser can open, the card the app posted, its check, and a
 * comment box whose /rescore reaches the app as a signed delivery.
 */
const headline = async (name: string): Promise<string> =>
  (
    (await readFile(new URL(`../../examples/cards/${name}.md`, import.meta.url), "utf8"))
      .split("\n")
      .find((line) => line.startsWith("## ")) ?? ""
  )
    .slice(3)
    .replace(/`/g, "");

describe("npm run try-app", () => {
  let app: TryApp;
  beforeAll(async () => {
    app = await startTryApp();
  }, 120_000);
  afterAll(async () => await app.stop());

  it("serves the pull request with the app's card and its check, and answers a /rescore written on the page", async () => {
    const page = await fetch(app.pageUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain("Speed up the decode kernel");
    expect(html).toContain(`<h2>${(await headline("passing-round")).replace("≥", "&gt;=").slice(0, 20)}`);
    expect(html).toMatch(/<li class="check" data-status="completed" data-conclusion="success">✅ <strong>speedgate<\/strong>/);
    expect(html).toContain('<form method="post" action="/Codertocat/Hello-World/pull/1/comments">');
    const css = await fetch(new URL("/_try-app/github-markdown.css", app.pageUrl));
    expect(css.status).toBe(200);

    const posted = await fetch(new URL("/Codertocat/Hello-World/pull/1/comments", app.pageUrl), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ body: "/rescore" }).toString(),
      redirect: "manual",
    });
    expect(posted.status).toBe(303);
    await app.idle();
    const after = await (await fetch(app.pageUrl)).text();
    // The app took the command (its reply names the commit it scores), dispatched the workflow once, and posted the second run's card.
    expect(after).toContain("/rescore");
    expect(after).toMatch(/data-login="speedgate\[bot\]"[^]*c0ffee0/);
    expect(app.fake.violations).toEqual([]);
    expect(app.fake.requests.filter((request) => request.template?.endsWith("/dispatches"))).toHaveLength(1);
    // One comment holds the card, replaced by the second run's (examples/cards/calibrated-three-runs: 1.12×).
    const cards = app.fake.comments.filter((comment) => comment.body.startsWith("<!-- speedgate -->"));
    expect(cards).toHaveLength(1);
    expect(cards[0]?.body).toContain("## ✅ Round score 1.12× clears the gate's 1.02×");
    expect(after).toContain("Round score 1.12×");
  }, 180_000);

  // Debian's chromium, driven as a person would: open the page, see the card and the check, comment /rescore.
  it.skipIf(!chromiumAvailable())(
    "works in a browser: the card, the check and /rescore from the comment box",
    async () => {
      const context = await launchChromium();
      try {
        const page = await context.newPage();
        await page.goto(app.pageUrl);
        await expect(page.locator(".comment article.markdown-body h2").first().textContent()).resolves.toMatch(/^✅ Round score /);
        await expect(page.locator("li.check").first().getAttribute("data-conclusion")).resolves.toBe("success");
        const before = app.fake.comments.length;
        await page.fill("#body", "/rescore");
        // The form's POST is answered once the app has handled the comment (303 back to the page).
        const [answer] = await Promise.all([
          page.waitForResponse((response) => response.request().method() === "POST"),
          page.click("button[type=submit]"),
        ]);
        expect(answer.status()).toBe(303);
        await page.waitForLoadState();
        await app.idle();
        await page.reload();
        expect(app.fake.comments.length).toBeGreaterThan(before);
        // The third example card: the candidate crashed mid-round; the page shows the crash first and the failed check.
        const said = app.fake.comments.map((comment) => `${comment.login}: ${comment.body.split("\n").slice(0, 3).join(" | ")}`).join("\n");
        expect(await page.locator(".comment article.markdown-body h2").first().textContent(), said).toMatch(/^❌ Candidate engine aborted/);
        await expect(page.locator("li.check").last().getAttribute("data-conclusion")).resolves.toBe("failure");
      } finally {
        await context.close();
        // Playwright's own folders in this file's TMPDIR (the suite checks that a file leaves nothing there).
        for (const entry of await readdir(tmpdir())) {
          if (entry.startsWith("playwright")) await rm(join(tmpdir(), entry), { recursive: true, force: true });
        }
      }
    },
    180_000,
  );
});
