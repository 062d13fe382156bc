import { readFile, rm, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { isProcessAlive } from "../is-process-alive.js";

export const LOCK_FILE = "speedgate.lock";

export class DataFolderInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: string,
  ) {
    super(
      `the PGlite data folder ${dataDir} is in use by ${holder}: PGlite serves one process at a time; ` +
        "stop that process first, or run several on a PostgreSQL server (DATABASE_URL)",
    );
    this.name = "DataFolderInUseError";
  }
}

/**
 * Takes the folder for this process. Two processes writing one PGlite folder corrupt it, so a second
 * one is refused while the first lives; a lock left by a process that died (same host, pid gone) is
 * taken over.
 */
export async function lockDataFolder(dataDir: string): Promise<() => Promise<void>> {
  const path = join(dataDir, LOCK_FILE);
  const mine = `${process.pid}@${hostname()}`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(path, `${mine}\n`, { flag: "wx", mode: 0o600 });
      return async () => {
        const current = await readFile(path, "utf8").catch(() => "");
        if (current.trim() === mine) await rm(path, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = (await readFile(path, "utf8").catch(() => "")).trim();
    const [pidText, host] = holder.split("@");
    const pid = Number(pidText);
    const stale = host === hostname() && Number.isInteger(pid) && pid > 0 && pid !== process.pid && !isProcessAlive(pid);
    if (!stale) throw new DataFolderInUseError(dataDir, holder === "" ? "another process" : `process ${holder}`);
    await rm(path, { force: true });
  }
  throw new DataFolderInUseError(dataDir, "another process");
}
