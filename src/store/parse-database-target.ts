import { resolve } from "node:path";

export type DatabaseTarget = { kind: "postgres"; url: string } | { kind: "pglite"; dataDir: string };

/** `postgres://…` or `postgresql://…` is a server; anything else is a PGlite data folder (relative to `cwd`). */
export function parseDatabaseTarget(value: string, cwd = process.cwd()): DatabaseTarget {
  const trimmed = value.trim();
  if (trimmed === "") throw new Error("the database is empty: give a postgres:// URL or a PGlite data folder");
  if (/^postgres(ql)?:\/\//i.test(trimmed)) {
    try {
      new URL(trimmed);
    } catch {
      throw new Error(`the database URL is not a URL: ${redactDatabaseUrl(trimmed)}`);
    }
    return { kind: "postgres", url: trimmed };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) {
    throw new Error(
      `unsupported database URL scheme in ${redactDatabaseUrl(trimmed)}: expected postgres:// or postgresql://, or a PGlite data folder`,
    );
  }
  return { kind: "pglite", dataDir: resolve(cwd, trimmed) };
}

/** The URL without its password, for logs and error messages. */
export function redactDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== "") parsed.password = "***";
    return parsed.toString();
  } catch {
    return url.replace(/\/\/([^:/@]*):[^@]*@/, "//$1:***@");
  }
}
