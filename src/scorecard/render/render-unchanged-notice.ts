import { escapeInline } from "../../safe-text/escape-engine-text.js";
import type { Scorecard } from "../scorecard-schema.js";

/**
 * A notice where the verdict is read when nothing was changed: with no patch and the same engine in
 * both seats, a score above 1 is this runner's noise, and without the notice it reads as a speedup.
 */
export function renderUnchangedNotice(card: Scorecard): string {
  if (!card.unchanged) return "";
  return (
    `> [!NOTE]\n> **No change was scored**: ${escapeInline(card.unchanged)}. Give the round a patch (candidate.patch) or a pull ` +
    `request's head to score it.`
  );
}
