import { afterAll, beforeAll } from "vitest";
import type { FakeGitHub } from "../../../harness/fake-github/fake-github-server.js";
import { type BotProcess, startBotProcess } from "./start-bot-process.js";
import { useFakeGitHub } from "./use-fake-github.js";

/**
 * One fake GitHub and one `npm run bot` process for a test file; the fake's state is cleared before
 * each test and every test fails on any request the description or the test did not allow.
 */
export function useBotProcess(options: { env?: Record<string, string>; pages?: boolean } = {}): {
  fake: FakeGitHub;
  bot: () => BotProcess;
} {
  let bot: BotProcess | undefined;
  const fake = useFakeGitHub({ explain: () => bot?.output().slice(-4000) });
  beforeAll(async () => {
    bot = await startBotProcess({
      gheHost: fake.host,
      ...(options.env ? { env: options.env } : {}),
      ...(options.pages ? { pages: true } : {}),
    });
  });
  afterAll(async () => await bot?.stop());
  return {
    fake,
    bot: () => {
      if (!bot) throw new Error("the app process has not started");
      return bot;
    },
  };
}
