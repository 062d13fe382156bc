import { median } from "../scoring/median.js";
import { formatMs } from "./render/describe-card.js";
import type { Scorecard } from "./scorecard-schema.js";

/** Why a round measured the engines' queue rather than their speed, and the setting that fixes it. */
export interface QueueBound {
  /** "the baseline's median time to first token was 183 ms, of which its own prompt processing was 3.9 ms: 98% was waiting". */
  why: string;
  /** "set bench.requestIntervalMs to at least 1,200 ms (it is 250 ms)". */
  fix: string;
  /** Set when the pull request changes the engine's parallel slots: draining the queue is then its effect, not noise. */
  slotsChanged?: string;
}

/** Waiting counts when it is at least this many times the engine's own time to a first token… */
const WAIT_OVER_OWN = 2;
/**
 * …and at least this long: HTTP, tokenizing and handing the request between an engine's processes are no
 * queue, and cost SGLang and vLLM tens of milliseconds on an idle GPU beside a prompt time of a few.
 */
const MIN_WAIT_MS = 50;
/** The first token coming this much later over the round, beside the growth below: one slow answer is no trend. */
const MIN_GROWTH_MS = 20;
/** The last quarter of arrivals waiting this many times longer for a first token than the first quarter: a queue that grew. */
const GROWTH = 3;
/** Quarters of at least this many prompts, so that one slow answer is not a trend. */
const MIN_QUARTER = 3;

/**
 * A load the baseline keeps up with: fewer in flight for a closed loop, else its served pace in this round with half again as margin, in 50
 * ms steps.
 */
function loadFix(card: Pick<Scorecard, "metrics" | "settings" | "promptsTotal">): string {
  const concurrency = card.settings.concurrency;
  const closed = concurrency !== null && concurrency !== undefined;
  // A pull request that changes the slots drains this queue on purpose: lowering the load to the baseline's slots would hide its effect.
  if (card.settings.slotsChanged) {
    return (
      "to also see it where neither engine queues, add a scenario at a load the baseline keeps up with " +
      (closed ? "(a bench.concurrency within its slots)" : "(a slower bench.requestIntervalMs)") +
      ", beside this one"
    );
  }
  // A closed loop queues only what it keeps in flight beyond the engine's slots.
  if (closed) {
    const slots = card.settings.engineSlots;
    const to = slots ? `its ${slots.slots.toLocaleString("en-US")} parallel slots` : "the engine's parallel slots";
    return `lower bench.concurrency (it is ${concurrency.toLocaleString("en-US")}) to ${to}, or give the engine more, then calibrate again`;
  }
  const now = card.settings.requestIntervalMs;
  const served =
    card.metrics && card.promptsTotal > 0 ? card.metrics.baseline.durationMs / Math.max(1, card.settings.runs) / card.promptsTotal : null;
  const wanted = served === null ? null : Math.max(now + 50, Math.ceil((served * 1.5) / 50) * 50);
  const at =
    wanted === null ? "a slower bench.requestIntervalMs" : `bench.requestIntervalMs to at least ${wanted.toLocaleString("en-US")} ms`;
  return `set ${at} (it is ${now.toLocaleString("en-US")} ms), or give the engine more parallel slots, then calibrate again`;
}

/**
 * Whether the round was queue-bound: requests waited in the baseline's queue for most of their time to
 * first token, so the score measures how the queue drains, which a small change in speed swings
 * widely, not the patch. Seen two ways: the client's TTFT far above the engine's own prompt time
 * (llama.cpp, SGLang and vLLM report theirs), or, from the client alone, the first token coming ever
 * later as the round went on (arrivals faster than the baseline serves), or, for a closed loop, more requests
 * kept in flight than the slots the baseline's command sets. Null when none shows.
 */
export function detectQueueBound(
  card: Pick<Scorecard, "metrics" | "engineTimes" | "prompts" | "settings" | "promptsTotal">,
): QueueBound | null {
  const ttft = card.metrics?.baseline.ttftMs.median ?? null;
  const own = card.engineTimes?.baseline?.promptMs ?? null;
  if (ttft !== null && own !== null) {
    const first = own + (card.engineTimes?.baseline?.decodeMsPerToken ?? 0);
    const wait = ttft - first;
    if (wait >= MIN_WAIT_MS && wait >= WAIT_OVER_OWN * first) {
      return {
        why:
          `the baseline's median time to first token was ${formatMs(ttft)} ms, of which its own prompt processing was ${formatMs(own)} ` +
          `ms: ${Math.round((wait / ttft) * 100)}% was waiting in its queue`,
        fix: loadFix(card),
        ...slotsOf(card),
      };
    }
  }
  const concurrency = card.settings.concurrency;
  if (concurrency !== null && concurrency !== undefined) {
    // A closed loop's queue is what it keeps in flight beyond the baseline's slots, the same from the first request to the last, so
    // it never grows over the round; an engine that reports no prompt times still shows it in the slots its command sets.
    const slots = card.settings.engineSlots;
    if (!slots || concurrency <= slots.slots) return null;
    const waiting = concurrency - slots.slots;
    return {
      why:
        `bench.concurrency ${concurrency.toLocaleString("en-US")} keeps that many requests in flight on a baseline with ` +
        `${slots.slots.toLocaleString("en-US")} parallel slots (\`${slots.setting}\` in baseline.command): ` +
        `${waiting.toLocaleString("en-US")} of them (${Math.round((waiting / concurrency) * 100)}%) wait in its queue at any time`,
      fix: loadFix(card),
      ...slotsOf(card),
    };
  }
  const ttfts = card.prompts.map((prompt) => prompt.baseline?.ttftMs ?? null).filter((value): value is number => value !== null);
  const quarter = Math.floor(ttfts.length / 4);
  if (quarter < MIN_QUARTER) return null;
  // Quarters are never empty here.
  const early = median(ttfts.slice(0, quarter)) ?? 0;
  const late = median(ttfts.slice(-quarter)) ?? 0;
  if (late - early >= MIN_GROWTH_MS && late >= GROWTH * early) {
    return {
      why:
        `the baseline's first token came ${formatMs(early)} ms after the request for the first quarter of the prompts and ` +
        `${formatMs(late)} ms for the last: requests arrived faster than it served them`,
      fix: loadFix(card),
      ...slotsOf(card),
    };
  }
  return null;
}

function slotsOf(card: Pick<Scorecard, "settings">): { slotsChanged?: string } {
  return card.settings.slotsChanged ? { slotsChanged: card.settings.slotsChanged } : {};
}
