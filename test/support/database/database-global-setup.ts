import pg from "pg";
import type { TestProject } from "vitest/node";

/**
 * Checks once per test run whether the PostgreSQL server named by SPEEDGATE_TEST_DATABASE_URL answers.
 * Without one the server half of the store's tests skips with a notice (the PGlite half always runs),
 * unless SPEEDGATE_REQUIRE_POSTGRES=1 (CI, where .ci/run starts one), where that is an error.
 */
export default async function setup(project: TestProject): Promise<void> {
  const url = process.env.SPEEDGATE_TEST_DATABASE_URL ?? "";
  const required = process.env.SPEEDGATE_REQUIRE_POSTGRES === "1";
  const skip = (reason: string, cause?: unknown): void => {
    if (required) throw new Error(`SPEEDGATE_REQUIRE_POSTGRES=1 but ${reason}`, { cause });
    process.stderr.write(`speedgate: skipping the PostgreSQL server tests: ${reason}; .ci/start-postgres.sh starts one\n`);
    project.provide("speedgatePostgres", { available: false, reason });
  };
  if (url === "") {
    skip("SPEEDGATE_TEST_DATABASE_URL is not set");
    return;
  }
  // pg resolves anything that is not an absolute URL against "postgres://base", so a value with a stray
  // line before the URL would fail as "getaddrinfo ENOTFOUND base"; say what is wrong with it instead.
  if (!/^postgres(ql)?:\/\/\S+$/.test(url)) {
    skip(`SPEEDGATE_TEST_DATABASE_URL is not one postgres:// URL (it starts ${JSON.stringify(url.slice(0, 40))})`);
    return;
  }
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    const { rows } = await client.query<{ can: boolean }>("SELECT rolcreatedb OR rolsuper AS can FROM pg_roles WHERE rolname = current_user");
    if (rows[0]?.can !== true) {
      skip("the role in SPEEDGATE_TEST_DATABASE_URL may not create databases (each test file makes its own)");
      return;
    }
  } catch (error) {
    skip(`no PostgreSQL server answers at SPEEDGATE_TEST_DATABASE_URL (${(error as Error).message})`, error);
    return;
  } finally {
    await client.end().catch(() => undefined);
  }
  project.provide("speedgatePostgres", { available: true, url });
}
