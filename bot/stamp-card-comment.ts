/*
 * The card comment carries which run it shows, so that when runs finish out of order an older run's
 * card never replaces a newer one's.
 */

export interface RunStamp {
  runId: number;
  startedAt: string;
}

const STAMP = /<!-- speedgate-run (\{[^}]*\}) -->/;

export function stampCardComment(markdown: string, stamp: RunStamp): string {
  return `${markdown.trimEnd()}\n\n<!-- speedgate-run ${JSON.stringify(stamp)} -->\n`;
}

export function readRunStamp(body: string): RunStamp | null {
  const match = STAMP.exec(body);
  if (!match?.[1]) return null;
  try {
    const value = JSON.parse(match[1]) as { runId?: unknown; startedAt?: unknown };
    if (typeof value.runId !== "number" || typeof value.startedAt !== "string") return null;
    return { runId: value.runId, startedAt: value.startedAt };
  } catch {
    return null;
  }
}

/** Whether a card from `incoming` may replace a comment showing `existing` (same run again: yes). */
export function isNotOlder(incoming: RunStamp, existing: RunStamp | null): boolean {
  if (!existing) return true;
  const order = incoming.startedAt.localeCompare(existing.startedAt);
  return order > 0 || (order === 0 && incoming.runId >= existing.runId);
}
