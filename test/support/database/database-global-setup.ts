import pg from "pg";
import type { TestProject } from "vitest/node";
import { type MissingPrerequisite, refuseSkipWhenRequired, reportMissingPrerequisite } from "../prerequisites/missing-prerequisites.js";
import { type ThrowawayPostgres, findPostgresBinaries, startThrowawayPostgres } from "./start-throwaway-postgres.js";

const SKIPPED = "the PostgreSQL server half of the store and app tests (the PGlite half always runs)";
const FIX =
  "install Debian's PostgreSQL (sudo apt-get install postgresql) and the test run starts a throwaway server itself, or point " +
  "SPEEDGATE_TEST_DATABASE_URL at a server whose role may create databases (.ci/start-postgres.sh starts one)";

/** Why a server at `url` cannot serve the tests, or null when it can. */
async function checkServer(url: string): Promise<string | null> {
  // pg resolves anything that is not an absolute URL against "postgres://base", so a value with a stray
  // line before the URL would fail as "getaddrinfo ENOTFOUND base"; say what is wrong with it instead.
  if (!/^postgres(ql)?:\/\/\S+$/.test(url))
    return `SPEEDGATE_TEST_DATABASE_URL is not one postgres:// URL (it starts ${JSON.stringify(url.slice(0, 40))})`;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    const { rows } = await client.query<{ can: boolean }>(
      "SELECT rolcreatedb OR rolsuper AS can FROM pg_roles WHERE rolname = current_user",
    );
    return rows[0]?.can === true ? null : "the role in SPEEDGATE_TEST_DATABASE_URL may not create databases (each test file makes its own)";
  } catch (error) {
    return `no PostgreSQL server answers at SPEEDGATE_TEST_DATABASE_URL (${(error as Error).message})`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * The PostgreSQL server the store's and the app's server tests use, once per test run: the one
 * SPEEDGATE_TEST_DATABASE_URL names, else a throwaway server this run starts itself from Debian's
 * binaries (and stops at the end). Without either the server half skips, said again after the
 * summary, unless SPEEDGATE_REQUIRE_POSTGRES=1 (CI), where that is an error.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const skip = (reason: string): void => {
    const prerequisite: MissingPrerequisite = {
      what: "PostgreSQL server",
      skipped: SKIPPED,
      reason,
      fix: FIX,
      requireVariable: "SPEEDGATE_REQUIRE_POSTGRES",
    };
    refuseSkipWhenRequired(prerequisite);
    reportMissingPrerequisite(prerequisite);
    project.provide("speedgatePostgres", { available: false, reason });
  };
  const given = process.env.SPEEDGATE_TEST_DATABASE_URL ?? "";
  if (given !== "") {
    const problem = await checkServer(given);
    if (problem) skip(problem);
    else project.provide("speedgatePostgres", { available: true, url: given });
    return undefined;
  }
  const bin = findPostgresBinaries();
  if (!bin) {
    skip("SPEEDGATE_TEST_DATABASE_URL is not set and PostgreSQL's initdb and pg_ctl are not installed");
    return undefined;
  }
  let server: ThrowawayPostgres;
  try {
    server = await startThrowawayPostgres(bin);
  } catch (error) {
    skip((error as Error).message);
    return undefined;
  }
  project.provide("speedgatePostgres", { available: true, url: server.url });
  return async () => await server.stop();
}
