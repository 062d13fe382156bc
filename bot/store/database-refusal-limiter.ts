import type { Queryable } from "../../src/store/database.js";
import { REFUSAL_WINDOW_MS, type RefusalLimiter, slotKeys } from "../refusal-limiter.js";

/**
 * bot/refusal-limiter.ts's limiter in speedgate.refusal_replies, so every replica counts the same replies and
 * a restart does not hand out a second one. One statement takes the reply for the window, or lets the
 * same work take it again (a retry of the job whose reply failed to post), and loses to anyone else.
 */
export class DatabaseRefusalLimiter implements RefusalLimiter {
  constructor(
    private readonly database: Queryable,
    private readonly windowMs = REFUSAL_WINDOW_MS,
    private readonly now: () => number = Date.now,
  ) {}

  async allowReply(key: string, claimant?: string): Promise<boolean> {
    const now = new Date(this.now());
    const { rowCount } = await this.database.query(
      `INSERT INTO speedgate.refusal_replies AS r (reply_key, claimant, until) VALUES ($1, $2, $3)
       ON CONFLICT (reply_key) DO UPDATE SET claimant = EXCLUDED.claimant, until = EXCLUDED.until
       WHERE r.until <= $4 OR (EXCLUDED.claimant IS NOT NULL AND r.claimant = EXCLUDED.claimant)`,
      [key, claimant ?? null, new Date(now.getTime() + this.windowMs), now],
    );
    return rowCount === 1;
  }

  /**
   * Takes the first of the scope's slots that is free (its window over, or never taken). Two replicas
   * choosing the same slot at once: one takes it, the other is refused, never both (a conservative cap).
   */
  async allowWithin(scope: string, limit: number): Promise<boolean> {
    const now = new Date(this.now());
    const { rowCount } = await this.database.query(
      `WITH free AS (
         SELECT key FROM unnest($1::text[]) WITH ORDINALITY AS slot(key, position)
         WHERE NOT EXISTS (SELECT 1 FROM speedgate.refusal_replies r WHERE r.reply_key = slot.key AND r.until > $3)
         ORDER BY position LIMIT 1)
       INSERT INTO speedgate.refusal_replies AS r (reply_key, claimant, until) SELECT key, NULL, $2 FROM free
       ON CONFLICT (reply_key) DO UPDATE SET claimant = NULL, until = EXCLUDED.until WHERE r.until <= $3`,
      [slotKeys(scope, limit), new Date(now.getTime() + this.windowMs), now],
    );
    return rowCount === 1;
  }
}
