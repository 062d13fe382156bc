import { generateKeyPairSync } from "node:crypto";
import { Probot, ProbotOctokit } from "probot";
import speedgateApp from "../../../bot/index.js";
import { API_PREFIX } from "./fake-github-server.js";

/** The app in-process, talking to the fake, with retries and throttling off as Probot's testing docs advise. */
export async function createTestProbot(options: { fakeUrl: string; appId: number; secret?: string; load?: boolean }): Promise<Probot> {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const probot = new Probot({
    appId: options.appId,
    privateKey: privateKey.export({ type: "pkcs1", format: "pem" }).toString(),
    baseUrl: `${options.fakeUrl}${API_PREFIX}`,
    logLevel: "warn",
    ...(options.secret ? { secret: options.secret } : {}),
    // The function form: Probot passes its own throttle options per instance, which would replace an object default.
    Octokit: ProbotOctokit.defaults((instanceOptions: Record<string, unknown>) => ({
      ...instanceOptions,
      retry: { enabled: false },
      throttle: { enabled: false },
    })),
  });
  if (options.load !== false) await probot.load(speedgateApp);
  return probot;
}
