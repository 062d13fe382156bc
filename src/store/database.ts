import type pg from "pg";

/**
 * The app's PostgreSQL, wherever it runs: a server (DATABASE_URL) or the embedded PGlite served on a
 * private socket. Both are reached through one `pg` pool, so the job queue and every query run the same
 * code on either. Nothing here may rely on session state (SET, named prepared statements, session
 * advisory locks, temporary tables): PGlite is one session shared by all of the pool's connections.
 */
export interface Database {
  readonly kind: "postgres" | "pglite";
  /** Where the data lives, for log lines and errors: the server without its password, or the folder. */
  readonly description: string;
  readonly pool: pg.Pool;
  /** How the pool connects (a URL, or PGlite's socket folder): another pool made from it reaches the same data. */
  readonly connection: pg.PoolConfig;
  /** Ends the pool, and for PGlite stops its socket server, closes it and unlocks the folder. */
  close(): Promise<void>;
}

/** Anything that runs a query: the pool, or one client inside a transaction. */
export interface Queryable {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
}
