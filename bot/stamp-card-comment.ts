import { CARD_MARKER } from "../src/scorecard/render/render-markdown.js";

/*
 * The card comment carries which run it shows, so that when runs finish out of order an older run's
 * card never replaces a newer one's. The stamp is read from one fixed place only, the line right
 * after the card's marker, which the app writes itself: a stamp-like line anywhere else in the
 * comment (an engine printing one into its log tail) is text, never the comment's stamp.
 */

export interface RunStamp {
  runId: number;
  startedAt: string;
}

const STAMP_LINE = /^<!-- speedgate-run (\{[^}]*\}) -->$/;

export function stampCardComment(markdown: string, stamp: RunStamp): string {
  const line = `<!-- speedgate-run ${JSON.stringify(stamp)} -->`;
  const rest = markdown.startsWith(`${CARD_MARKER}\n`) ? markdown.slice(CARD_MARKER.length + 1) : markdown;
  return `${CARD_MARKER}\n${line}\n${rest}`;
}

export function readRunStamp(body: string): RunStamp | null {
  const [marker, line] = body.split("\n", 2);
  if (marker !== CARD_MARKER || line === undefined) return null;
  const match = STAMP_LINE.exec(line);
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
