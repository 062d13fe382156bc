import { escapeInline } from "../../safe-text/escape-engine-text.js";
import { detectQueueBound } from "../detect-queue-bound.js";
import type { Scorecard } from "../scorecard-schema.js";

/** The sentence both cards give a queue-bound round, plain text: the Markdown card escapes it. */
export function describeQueueBound(card: Scorecard): string | null {
  const found = detectQueueBound(card);
  if (!found) return null;
  if (found.slotsChanged) {
    return (
      `Queue-bound round: ${found.why}. The pull request changes the engine's parallel slots (${found.slotsChanged}): draining ` +
      `that queue is what it speeds up, so the score is its effect at this load, not noise; ${found.fix}.`
    );
  }
  return (
    `Queue-bound round: ${found.why}. The score measures how the queue drains, which a small change in speed swings widely, not the ` +
    `patch; ${found.fix}.`
  );
}

/**
 * A warning on the card's first screen when the round was queue-bound: without it a wide interval or a
 * surprising score reads as the patch's doing, and the setting that fixes it is the maintainers'.
 */
export function renderQueueBoundNotice(card: Scorecard): string {
  const sentence = describeQueueBound(card);
  if (!sentence) return "";
  const [lead, ...rest] = sentence.split(": ");
  return `> [!WARNING]\n> **${escapeInline(lead ?? "")}**: ${escapeInline(rest.join(": "))}`;
}
