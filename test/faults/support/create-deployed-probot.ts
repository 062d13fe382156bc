import { generateKeyPairSync } from "node:crypto";
import { Probot } from "probot";
import speedgateApp from "../../../bot/index.js";
import { API_PREFIX } from "../../support/fake-github/fake-github-server.js";

/**
 * The app in-process with the Octokit it has when deployed: bot/server.ts calls Probot's run()
 * without an Octokit of its own, so Probot's retry and throttling settings apply as they are here
 * (test/support/fake-github/create-test-probot.ts turns both off; fault tests need them on).
 * Deliveries go through probot.receive, which settles when every handler has finished.
 */
export async function createDeployedProbot(options: { fakeUrl: string; appId: number }): Promise<Probot> {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const probot = new Probot({
    appId: options.appId,
    privateKey: privateKey.export({ type: "pkcs1", format: "pem" }).toString(),
    baseUrl: `${options.fakeUrl}${API_PREFIX}`,
    logLevel: "fatal",
  });
  await probot.load(speedgateApp);
  return probot;
}
