import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { chown, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { getFreePort } from "../get-free-port.js";

const run = promisify(execFile);

/** A PostgreSQL server this test run started for itself, and how to stop it. */
export interface ThrowawayPostgres {
  url: string;
  stop(): Promise<void>;
}

/** The folder holding initdb, pg_ctl and postgres: Debian keeps them off PATH, under /usr/lib/postgresql/<version>/bin. */
export function findPostgresBinaries(): string | null {
  // SPEEDGATE_TEST_POSTGRES_ROOT points elsewhere (the test of the skip notice names a missing one).
  const root = process.env.SPEEDGATE_TEST_POSTGRES_ROOT ?? "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => /^\d+$/.test(name))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const version of versions) {
    const bin = join(root, version, "bin");
    if (["initdb", "pg_ctl", "postgres"].every((tool) => existsSync(join(bin, tool)))) return bin;
  }
  return null;
}

/**
 * initdb and postgres refuse to run as root; as root the server runs as Debian's `postgres` user,
 * which the package creates, through runuser.
 */
async function asServerUser(argv: string[], dataRoot: string): Promise<string[]> {
  if (userInfo().uid !== 0) return argv;
  const { stdout } = await run("id", ["-u", "postgres"]).catch(() => ({ stdout: "" }));
  const uid = Number(stdout.trim());
  if (!Number.isInteger(uid) || uid <= 0) throw new Error("running as root and there is no `postgres` user to run the server as");
  const { stdout: gidOut } = await run("id", ["-g", "postgres"]);
  await chown(dataRoot, uid, Number(gidOut.trim()));
  return ["runuser", "-u", "postgres", "--", ...argv];
}

async function exec(argv: string[]): Promise<void> {
  const [program, ...args] = argv;
  if (!program) throw new Error("nothing to run");
  await run(program, args, { timeout: 60_000 });
}

/**
 * Starts a PostgreSQL server of the test run's own, in a temporary folder, on a free loopback port,
 * with durability off (the data dies with the run, so fsync buys nothing but seconds). The role the
 * tests log in as may create databases; local connections are trusted, so there is no password.
 */
export async function startThrowawayPostgres(bin: string): Promise<ThrowawayPostgres> {
  // As root the server runs as `postgres`, which cannot enter a test worker's private (0700) TMPDIR.
  const root = await mkdtemp(join(userInfo().uid === 0 ? "/tmp" : tmpdir(), "speedgate-test-postgres-"));
  const data = join(root, "data");
  const log = join(root, "server.log");
  try {
    const port = await getFreePort();
    await exec(
      await asServerUser(
        [
          join(bin, "initdb"),
          "--pgdata",
          data,
          "--username",
          "speedgate_test",
          "--auth",
          "trust",
          "--encoding",
          "UTF8",
          "--no-sync",
          "--no-instructions",
        ],
        root,
      ),
    );
    const options = [
      `-p ${port}`,
      `-k ${root}`,
      "-c listen_addresses=127.0.0.1",
      "-c fsync=off",
      "-c synchronous_commit=off",
      "-c full_page_writes=off",
      "-c max_connections=300",
    ].join(" ");
    await exec(
      await asServerUser(
        [join(bin, "pg_ctl"), "--pgdata", data, "--log", log, "--options", options, "--wait", "--timeout", "60", "start"],
        root,
      ),
    );
    return {
      url: `postgres://speedgate_test@127.0.0.1:${port}/postgres`,
      async stop() {
        await exec(await asServerUser([join(bin, "pg_ctl"), "--pgdata", data, "--mode", "immediate", "--wait", "stop"], root)).catch(
          () => undefined,
        );
        await rm(root, { recursive: true, force: true });
      },
    };
  } catch (error) {
    const serverLog = await readFile(log, "utf8").catch(() => "");
    await rm(root, { recursive: true, force: true });
    const detail = error instanceof Error ? error.message : String(error);
    throw new Error(
      `could not start a throwaway PostgreSQL server with ${bin}: ${detail}${serverLog ? `\n${serverLog.slice(-2_000)}` : ""}`,
      { cause: error },
    );
  }
}
