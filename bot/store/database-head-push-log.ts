import type { Queryable } from "../../src/store/database.js";
import type { HeadPushLog } from "../head-push-log.js";

/** bot/head-push-log.ts's log in speedgate.head_pushes: every replica judges a /rescore against the same record. */
export class DatabaseHeadPushLog implements HeadPushLog {
  constructor(private readonly database: Queryable) {}

  async record(pull: string, headSha: string, at: string): Promise<void> {
    await this.database.query(
      `INSERT INTO speedgate.head_pushes AS h (pull, head_sha, pushed_at) VALUES ($1, $2, $3)
       ON CONFLICT (pull, head_sha) DO UPDATE SET pushed_at = greatest(h.pushed_at, EXCLUDED.pushed_at), recorded_at = now()`,
      [pull, headSha, at],
    );
  }

  async lookup(pull: string, headSha: string): Promise<string | null> {
    const { rows } = await this.database.query<{ pushed_at: Date }>(
      "SELECT pushed_at FROM speedgate.head_pushes WHERE pull = $1 AND head_sha = $2",
      [pull, headSha],
    );
    const at = rows[0]?.pushed_at;
    return at ? at.toISOString() : null;
  }
}
