import { generateKeyPairSync } from "node:crypto";
import { Probot, ProbotOctokit } from "probot";
import { AppOctokit } from "../../../bot/app-octokit.js";
import { type SpeedgateAppOptions, createSpeedgateApp } from "../../../bot/index.js";
import { API_PREFIX } from "../../support/fake-github/fake-github-server.js";

/**
 * The app in-process against the fake, logging nothing below fatal: these callers expect handler
 * errors and count them. `octokit: "deployed"` is the Octokit bot/server.ts gives Probot's run()
 * (bot/app-octokit.ts: Probot's retries and throttling, secondary rate limits retried); "plain"
 * turns retries and throttling off, as test/support/fake-github/create-test-probot.ts does.
 * Deliveries go through probot.receive, which settles when every handler has finished. `app`
 * shortens the app's own retry waits where a row gives up on purpose.
 */
export async function createSilentProbot(options: { fakeUrl: string; appId: number; octokit: "deployed" | "plain"; app?: SpeedgateAppOptions }): Promise<Probot> {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const probot = new Probot({
    appId: options.appId,
    privateKey: privateKey.export({ type: "pkcs1", format: "pem" }).toString(),
    baseUrl: `${options.fakeUrl}${API_PREFIX}`,
    logLevel: "fatal",
    Octokit:
      options.octokit === "plain"
        ? ProbotOctokit.defaults((instanceOptions: Record<string, unknown>) => ({
            ...instanceOptions,
            retry: { enabled: false },
            throttle: { enabled: false },
          }))
        : AppOctokit,
  });
  await probot.load(createSpeedgateApp(options.app));
  return probot;
}
