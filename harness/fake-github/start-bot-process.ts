import { type ChildProcess, spawn } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/*
 * `npm run bot` started as deployed, against the local GitHub fake: what the tests (test/support's useBotProcess),
 * `npm run bench` (bench/app-start-and-stop.ts) and `npm run try-app` all start.
 */

export interface BotProcess {
  /** Where GitHub would post deliveries. */
  webhookUrl: string;
  /** http://127.0.0.1:<port>: where the app's history pages are (with `pages`, SPEEDGATE_PAGES_URL). */
  baseUrl: string;
  port: number;
  /** The process group of `npm run bot` (npm, tsx and the app's node); the app is the one listening on `port`. */
  processGroup: number;
  secret: string;
  appId: number;
  /** Everything the app logged, for assertions and for failure messages. */
  output: () => string;
  /** Resolves with the first match of `pattern` in what the app logged, as soon as it is logged. */
  waitFor: (pattern: RegExp) => Promise<RegExpExecArray>;
  /**
   * Resolves once the work of a delivery is over: the delivery stored nothing, or its work (and the
   * follow-up work it stored, such as the card's pull request lane) ended done or given up. Read from the
   * app's JSON log lines (bot/handlers/intake-delivery.ts, bot/work/app-work.ts); a work key another replica ran
   * is not seen here.
   */
  settled: (deliveryId: string) => Promise<void>;
  /** Resolves once the work stored under `key` ended done or given up, with its follow-ups. */
  workEnded: (key: string) => Promise<void>;
  /**
   * SIGTERM to the started process (npm): the app stops in order (running jobs get 2 s to finish, then are handed back to
   * run at the next start); resolves when it has exited.
   */
  stop: () => Promise<void>;
  /** SIGKILL: the process dies where it is. */
  kill: () => Promise<void>;
}

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

interface LogLine {
  delivery?: string;
  work?: string | null;
  outcome?: string;
  followUps?: string[];
}

export interface BotProcessOptions {
  gheHost: string;
  appId?: number;
  secret?: string;
  env?: Record<string, string>;
  /** The app's private key (PEM); a fresh one by default. Replicas of one app share it. */
  privateKey?: string;
  /**
   * "ready" (the default): resolve once the database is open and deliveries are taken; "listening":
   * as soon as the server answers HTTP, while the database may still be opening.
   */
  until?: "ready" | "listening";
  /** The port the app listens on; one the OS has free by default. */
  port?: number;
  /** Serve the history pages at http://127.0.0.1:<port> (SPEEDGATE_PAGES_URL), before `env`. */
  pages?: boolean;
  /** Run once the app has exited, by stop() and kill(): the caller's database is removed there. */
  afterExit?: () => Promise<void>;
}

/** A port the OS has free now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no free port");
  return address.port;
}

/**
 * Starts the app exactly as deployed (`npm run bot`) with Probot's environment pointing at the fake
 * GitHub, and resolves once it logs that it is ready (database open, deliveries taken): no sleeping. Without DATABASE_URL or
 * SPEEDGATE_DATA_DIR in `env`, it gets an empty PGlite folder of its own, removed when it stops.
 */
export async function startBotProcess(options: BotProcessOptions): Promise<BotProcess> {
  const port = options.port ?? (await freePort());
  const appId = options.appId ?? 4242;
  const secret = options.secret ?? "test-webhook-secret";
  const privateKey =
    options.privateKey ??
    generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs1", format: "pem" }).toString();
  let ownFolder: string | null = null;
  const storeEnv: Record<string, string> = {};
  if (!options.env?.DATABASE_URL && !options.env?.SPEEDGATE_DATA_DIR) {
    ownFolder = await mkdtemp(join(process.env.TMPDIR ?? tmpdir(), "speedgate-app-database-"));
    storeEnv.SPEEDGATE_DATA_DIR = ownFolder;
  }
  let afterExit = options.afterExit ?? null;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TMPDIR: process.env.TMPDIR,
    APP_ID: String(appId),
    PRIVATE_KEY: privateKey,
    WEBHOOK_SECRET: secret,
    PORT: String(port),
    HOST: "127.0.0.1",
    LOG_LEVEL: "info",
    LOG_FORMAT: "json",
    GHE_HOST: options.gheHost,
    GHE_PROTOCOL: "http",
    NODE_ENV: "test",
    // Nothing failed before this app started: no need to read the fake's delivery log.
    SPEEDGATE_REDELIVER_HOURS: "0",
    // Nor after a 5xx the app answered: a test that wants it (and serves the delivery log) sets it.
    SPEEDGATE_REDELIVER_AFTER_MS: "0",
    ...storeEnv,
    ...(options.pages ? { SPEEDGATE_PAGES_URL: `http://127.0.0.1:${port}` } : {}),
    ...options.env,
  };
  // Its own process group, so that kill() (SIGKILL, which npm cannot pass on) takes the app with npm.
  const child: ChildProcess = spawn("npm", ["run", "--silent", "bot"], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let pending = "";
  const lines: LogLine[] = [];
  const waiting = new Set<() => void>();
  const listening = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      const text = chunk.toString("utf8");
      output += text;
      pending += text;
      const complete = pending.split("\n");
      pending = complete.pop() ?? "";
      for (const line of complete) {
        if (!line.startsWith("{")) continue;
        try {
          lines.push(JSON.parse(line) as LogLine);
        } catch {
          // Not one of the app's JSON lines.
        }
      }
      for (const check of [...waiting]) check();
      // Listening is not enough: deliveries get 503 until the database is open (bot/app-readiness.ts).
      if (output.includes(options.until === "listening" ? "Listening on http://" : "taking deliveries")) resolve();
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code, signal) => reject(new Error(`the app exited (${code ?? signal}) before it was ready:\n${output}`)));
  });
  const exited = once(child, "exit");
  // npm exits on the signal at once; the app (its child, writing to the same pipes) is gone when they close.
  const closed = Promise.all([child.stdout ? once(child.stdout, "close") : null, child.stderr ? once(child.stderr, "close") : null]);
  const signal = async (name: NodeJS.Signals, whole: "process" | "group"): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      try {
        process.kill(whole === "group" ? -child.pid : child.pid, name);
      } catch {
        // Already gone.
      }
      await exited;
    }
    await closed;
    if (ownFolder) {
      await rm(ownFolder, { recursive: true, force: true });
      ownFolder = null;
    }
    const after = afterExit;
    afterExit = null;
    await after?.();
  };
  // SIGTERM to the started process only, as a supervisor sends it: npm passes it on to the app it
  // runs (`exec node`), and the pipes close only once the app is gone, so a stray app would hang here.
  const stop = async (): Promise<void> => await signal("SIGTERM", "process");
  const kill = async (): Promise<void> => await signal("SIGKILL", "group");
  try {
    await listening;
  } catch (error) {
    await stop();
    throw error;
  }
  const until = async <T>(find: () => T | null): Promise<T> =>
    await new Promise<T>((resolve) => {
      const check = (): void => {
        const found = find();
        if (found === null) return;
        waiting.delete(check);
        resolve(found);
      };
      waiting.add(check);
      check();
    });
  const waitFor = async (pattern: RegExp): Promise<RegExpExecArray> => await until(() => pattern.exec(output));
  const workEnded = async (key: string): Promise<void> => {
    const end = await until(
      () => lines.find((line) => line.work === key && (line.outcome === "done" || line.outcome === "given-up")) ?? null,
    );
    for (const next of end.followUps ?? []) await workEnded(next);
  };
  const settled = async (deliveryId: string): Promise<void> => {
    const intake = await until(
      () => lines.find((line) => line.delivery === deliveryId && line.work !== undefined && line.outcome === undefined) ?? null,
    );
    if (typeof intake.work === "string") await workEnded(intake.work);
  };
  return {
    waitFor,
    settled,
    workEnded,
    webhookUrl: `http://127.0.0.1:${port}/api/github/webhooks`,
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    processGroup: child.pid ?? 0,
    secret,
    appId,
    output: () => output,
    stop,
    kill,
  };
}
