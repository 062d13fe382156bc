import { generateKeyPairSync } from "node:crypto";
import { Probot, ProbotOctokit } from "probot";
import { AppOctokit } from "../../bot/app-octokit.js";
import { type SpeedgateAppOptions, createSpeedgateApp } from "../../bot/index.js";
import { API_PREFIX } from "./fake-github-server.js";

export interface TestProbotOptions {
  fakeUrl: string;
  appId: number;
  secret?: string;
  /**
   * "plain" (the default) turns retries and throttling off, as Probot's testing docs advise; "deployed"
   * is the Octokit bot/server.ts gives Probot's run() (bot/app-octokit.ts: retries, throttling,
   * secondary rate limits retried), for tests of how the app rides out GitHub's refusals.
   */
  octokit?: "plain" | "deployed";
  /** "fatal" for callers that provoke handler errors on purpose and count them. */
  logLevel?: "warn" | "fatal";
  /** The app's options, or false to load nothing (a test that loads its own app or only needs the client). */
  app?: SpeedgateAppOptions | false;
}

/** The one Probot the tests make: the app in-process (loaded unless `app` is false), talking to the fake GitHub. */
export async function createTestProbot(options: TestProbotOptions): Promise<Probot> {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const probot = new Probot({
    appId: options.appId,
    privateKey: privateKey.export({ type: "pkcs1", format: "pem" }).toString(),
    baseUrl: `${options.fakeUrl}${API_PREFIX}`,
    logLevel: options.logLevel ?? "warn",
    ...(options.secret ? { secret: options.secret } : {}),
    Octokit:
      options.octokit === "deployed"
        ? AppOctokit
        : // The function form: Probot passes its own throttle options per instance, which would replace an object default.
          ProbotOctokit.defaults((instanceOptions: Record<string, unknown>) => ({
            ...instanceOptions,
            retry: { enabled: false },
            throttle: { enabled: false },
          })),
  });
  if (options.app !== false) await probot.load(createSpeedgateApp(options.app));
  return probot;
}
