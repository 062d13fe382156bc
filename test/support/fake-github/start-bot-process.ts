import {
  type BotProcess,
  type BotProcessOptions,
  startBotProcess as startHarnessBotProcess,
} from "../../../harness/fake-github/start-bot-process.js";
import { pgliteBackend } from "../database/database-backends.js";
import { getFreePort } from "../get-free-port.js";

export type { BotProcess, BotProcessOptions };

/**
 * harness/fake-github/start-bot-process.ts with the suite's own port block (getFreePort) and, without a store in `env`, a PGlite
 * database of the suite's test backends, removed once the app has exited.
 */
export async function startBotProcess(options: BotProcessOptions): Promise<BotProcess> {
  const port = options.port ?? (await getFreePort());
  if (options.env?.DATABASE_URL || options.env?.SPEEDGATE_DATA_DIR) return await startHarnessBotProcess({ ...options, port });
  const database = await pgliteBackend().create();
  const env = { ...options.env, ...(database.target.kind === "pglite" ? { SPEEDGATE_DATA_DIR: database.target.dataDir } : {}) };
  let destroyed = false;
  const destroy = async (): Promise<void> => {
    if (destroyed) return;
    destroyed = true;
    await database.destroy();
  };
  try {
    return await startHarnessBotProcess({ ...options, port, env, afterExit: destroy });
  } catch (error) {
    await destroy();
    throw error;
  }
}
