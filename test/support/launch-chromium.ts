import { existsSync } from "node:fs";
import { type BrowserContext, chromium } from "playwright-core";
import { CLOSED_NETWORK_CHROMIUM_FLAGS } from "../../scripts/lib/closed-network-chromium-flags.js";
import { makeTempDir } from "./make-temp-dir.js";

/** Debian's Chromium (CHROMIUM names another): the browser tests drive it through playwright-core, which downloads none. */
export const CHROMIUM_PATH = process.env.CHROMIUM ?? "/usr/bin/chromium";

/**
 * Whether the browser tests can run. Without Chromium they are skipped with a notice, or fail where
 * SPEEDGATE_REQUIRE_CHROMIUM=1 (which .ci/run sets, after installing Debian's chromium).
 */
export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM_PATH)) return true;
  const fix = "sudo apt-get install chromium fonts-noto-color-emoji (or set CHROMIUM to a Chromium binary)";
  if (process.env.SPEEDGATE_REQUIRE_CHROMIUM === "1")
    throw new Error(`SPEEDGATE_REQUIRE_CHROMIUM=1 but there is no Chromium at ${CHROMIUM_PATH}: ${fix}`);
  process.stderr.write(`\nspeedgate: SKIPPING the browser tests: no Chromium at ${CHROMIUM_PATH}.\n  To run them: ${fix}\n`);
  return false;
}

/** A headless Chromium with a new empty profile; close it after the test. */
export async function launchChromium(): Promise<BrowserContext> {
  return await chromium.launchPersistentContext(await makeTempDir("chromium-profile-"), {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CLOSED_NETWORK_CHROMIUM_FLAGS],
    viewport: { width: 1200, height: 900 },
  });
}
