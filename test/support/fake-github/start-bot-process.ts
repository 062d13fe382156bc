import { type ChildProcess, spawn } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { getFreePort } from "../get-free-port.js";

export interface BotProcess {
  /** Where GitHub would post deliveries. */
  webhookUrl: string;
  port: number;
  secret: string;
  appId: number;
  /** Everything the app logged, for assertions and for failure messages. */
  output: () => string;
  /** Resolves with the first match of `pattern` in what the app logged, as soon as it is logged. */
  waitFor: (pattern: RegExp) => Promise<RegExpExecArray>;
  stop: () => Promise<void>;
}

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/**
 * Starts the app exactly as deployed (`npm run bot`) with Probot's environment pointing at the fake
 * GitHub, and resolves once it logs that it listens: no sleeping.
 */
export async function startBotProcess(options: { gheHost: string; appId?: number; secret?: string; env?: Record<string, string> }): Promise<BotProcess> {
  const port = await getFreePort();
  const appId = options.appId ?? 4242;
  const secret = options.secret ?? "test-webhook-secret";
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    APP_ID: String(appId),
    PRIVATE_KEY: privateKey.export({ type: "pkcs1", format: "pem" }).toString(),
    WEBHOOK_SECRET: secret,
    PORT: String(port),
    HOST: "127.0.0.1",
    LOG_LEVEL: "info",
    LOG_FORMAT: "json",
    GHE_HOST: options.gheHost,
    GHE_PROTOCOL: "http",
    NODE_ENV: "test",
    ...options.env,
  };
  // Its own process group, so stopping it also stops tsx's node under npm.
  const child: ChildProcess = spawn("npm", ["run", "--silent", "bot"], { cwd: ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const waiting = new Set<() => void>();
  const listening = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString("utf8");
      for (const check of waiting) check();
      if (output.includes("Listening on http://")) resolve();
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code, signal) => reject(new Error(`the app exited (${code ?? signal}) before listening:\n${output}`)));
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
    const exited = once(child, "exit");
    process.kill(-child.pid, "SIGTERM");
    await exited;
  };
  try {
    await listening;
  } catch (error) {
    await stop();
    throw error;
  }
  const waitFor = async (pattern: RegExp): Promise<RegExpExecArray> =>
    await new Promise<RegExpExecArray>((resolve) => {
      const check = (): void => {
        const match = pattern.exec(output);
        if (!match) return;
        waiting.delete(check);
        resolve(match);
      };
      waiting.add(check);
      check();
    });
  return { waitFor, webhookUrl: `http://127.0.0.1:${port}/api/github/webhooks`, port, secret, appId, output: () => output, stop };
}
