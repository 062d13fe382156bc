import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest";
import { FakeGitHub } from "../../../harness/fake-github/fake-github-server.js";
import { type BotProcess, startBotProcess } from "./start-bot-process.js";

/**
 * One fake GitHub and one `npm run bot` process for a test file; the fake's state is cleared before
 * each test and every test fails on any request the description or the test did not allow.
 */
export function useBotProcess(options: { env?: Record<string, string> } = {}): { fake: FakeGitHub; bot: () => BotProcess } {
  const fake = new FakeGitHub();
  let bot: BotProcess | undefined;
  beforeAll(async () => {
    await fake.start();
    bot = await startBotProcess({ gheHost: fake.host, ...(options.env ? { env: options.env } : {}) });
  });
  afterAll(async () => {
    await bot?.stop();
    await fake.stop();
  });
  beforeEach(() => fake.reset());
  afterEach(() => {
    expect(fake.violations, bot?.output().slice(-4000)).toEqual([]);
  });
  return {
    fake,
    bot: () => {
      if (!bot) throw new Error("the app process has not started");
      return bot;
    },
  };
}
