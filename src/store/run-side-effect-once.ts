import type { Queryable } from "./database.js";

/*
 * An outbox record for a side effect nobody else de-duplicates (a workflow dispatch starts a GPU run
 * each time it is sent). The record is written as "being sent" before the request leaves, so a retry
 * after a crash between the two finds it and does not send again: at most once, and said so.
 *
 *   (none) ──claim──▶ pending(sends=n) ──ok──▶ done(result)
 *                          │  └──refused (definitely not sent)──▶ failed ──claim──▶ pending(n+1)
 *                          └──no answer / crash (maybe sent)──▶ uncertain (never sent again)
 */

export type SideEffectOutcome<R> =
  /** Sent, now or by an earlier attempt; `result` is what the send returned then. */
  | { state: "done"; result: R; sentNow: boolean }
  /** It may or may not have happened, and sending again could do it twice: the caller says so to people. */
  | { state: "uncertain"; reason: string };

export interface SideEffectRequest<R> {
  /** What makes two sends the same (`dispatch:comment:123`). */
  key: string;
  /** A label for people and queries (`dispatch`). */
  kind: string;
  send: () => Promise<R>;
  /** True when the error proves nothing was done (GitHub refused the request): the next attempt may send again. */
  isDefiniteRefusal: (error: unknown) => boolean;
}

interface Row {
  state: "pending" | "done" | "failed" | "uncertain";
  sends: number;
  result: unknown;
  error: string | null;
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "";
}

export async function runSideEffectOnce<R>(queryable: Queryable, request: SideEffectRequest<R>): Promise<SideEffectOutcome<R>> {
  await queryable.query(
    "INSERT INTO speedgate.side_effects (effect_key, kind, state, sends) VALUES ($1, $2, 'pending', 0) ON CONFLICT (effect_key) DO NOTHING",
    [request.key, request.kind],
  );
  const { rows } = await queryable.query<Row>("SELECT state, sends, result, error FROM speedgate.side_effects WHERE effect_key = $1", [
    request.key,
  ]);
  const row = rows[0];
  if (!row) throw new Error(`side effect ${request.key} vanished while it was being claimed`);
  if (row.state === "done") return { state: "done", result: row.result as R, sentNow: false };
  if (row.state === "uncertain") return { state: "uncertain", reason: row.error ?? "an earlier attempt may have sent it" };
  if (row.state === "pending" && row.sends > 0) {
    const reason = "an earlier attempt started sending it and never recorded the answer (the app stopped, or the database went away)";
    await queryable.query(
      "UPDATE speedgate.side_effects SET state = 'uncertain', error = $2, updated_at = now() WHERE effect_key = $1 AND state = 'pending'",
      [request.key, reason],
    );
    return { state: "uncertain", reason };
  }
  // Claim it: only the attempt whose update matches the sends it read goes on to send.
  const claimed = await queryable.query(
    "UPDATE speedgate.side_effects SET state = 'pending', sends = sends + 1, error = NULL, updated_at = now() WHERE effect_key = $1 " +
      "AND state = $2 AND sends = $3",
    [request.key, row.state, row.sends],
  );
  if (claimed.rowCount !== 1) return { state: "uncertain", reason: "another attempt is sending it at this moment" };

  let result: R;
  try {
    result = await request.send();
  } catch (error) {
    if (request.isDefiniteRefusal(error)) {
      await queryable.query("UPDATE speedgate.side_effects SET state = 'failed', error = $2, updated_at = now() WHERE effect_key = $1", [
        request.key,
        messageOf(error),
      ]);
      throw error;
    }
    const reason = `sending it failed without a definite answer: ${messageOf(error)}`;
    await queryable.query("UPDATE speedgate.side_effects SET state = 'uncertain', error = $2, updated_at = now() WHERE effect_key = $1", [
      request.key,
      reason,
    ]);
    return { state: "uncertain", reason };
  }
  await queryable.query("UPDATE speedgate.side_effects SET state = 'done', result = $2::jsonb, updated_at = now() WHERE effect_key = $1", [
    request.key,
    JSON.stringify(result ?? null),
  ]);
  return { state: "done", result, sentNow: true };
}
