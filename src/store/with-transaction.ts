import type pg from "pg";

/**
 * Runs `work` in one transaction on one client. Inside, only `client` may be used: on PGlite every
 * connection shares one session, and a query on another connection waits for this transaction to end.
 */
export async function withTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    try {
      await client.query("ROLLBACK");
    } catch {
      // The connection itself failed: it must not go back to the pool.
      broken = true;
    }
    throw error;
  } finally {
    client.release(broken);
  }
}
