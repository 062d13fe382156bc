import { generateKeyPairSync } from "node:crypto";
import { Probot, ProbotOctokit } from "probot";
import speedgateApp from "../../bot/index.js";
import { API_PREFIX } from "../../test/support/fake-github/fake-github-server.js";

/**
 * The app in-process against the fake, as test/support/fake-github/create-test-probot.ts makes it
 * (no retries, no throttling), but silent: the corpus expects handler errors and counts them itself.
 */
export async function createQuietProbot(options: { fakeUrl: string; appId: number }): Promise<Probot> {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const probot = new Probot({
    appId: options.appId,
    privateKey: privateKey.export({ type: "pkcs1", format: "pem" }).toString(),
    baseUrl: `${options.fakeUrl}${API_PREFIX}`,
    logLevel: "fatal",
    Octokit: ProbotOctokit.defaults((instanceOptions: Record<string, unknown>) => ({
      ...instanceOptions,
      retry: { enabled: false },
      throttle: { enabled: false },
    })),
  });
  await probot.load(speedgateApp);
  return probot;
}
