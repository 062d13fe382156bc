import { formatBar, formatTimes } from "../../scoring/format-speedup.js";
import { type ScenarioJudgement, combineScenarioGates } from "../../scoring/combine-scenario-gates.js";
import { describeScenarioScore } from "../assemble-scenario-card.js";
import { readScenarioGate } from "../read-scenario-gate.js";
import { decideVerdict } from "../decide-verdict.js";
import { describeFailureEvent, describeVerdict, firstClause } from "./describe-card.js";
import { describeLoad } from "./describe-load.js";
import { describePromptSource } from "./describe-synthetic-prompts.js";
import type { ScenarioCard, ScenarioResult, Scorecard } from "../scorecard-schema.js";

/*
 * A round with scenarios in words, for the Markdown card and the terminal card alike: the headline
 * naming which scenarios passed, improved and regressed, and one row a scenario. Plain text: the
 * Markdown card escapes it.
 */

export type VerdictMark = "✅" | "❌" | "⚠️";

export interface ScenarioRow {
  name: string;
  /** What the scenario must show (gate.role): "target ≥ 1.00×" (faster than its bar), "guard ≥ 0.95×" (not surely slower). */
  role: string;
  /** "one every 250 ms on average (Poisson)", "concurrency 32". */
  load: string;
  /** "24 from prompts/chat.jsonl", "16 synthetic, 128→256 tokens". */
  prompts: string;
  score: string;
  /** "[0.88×, 0.94×]", or why there is none. */
  interval: string;
  mark: VerdictMark;
  /** "passed", or the first reason it did not. */
  verdict: string;
  card: ScenarioCard;
  judgement: ScenarioJudgement;
}

export interface ScenariosDescription {
  headline: string;
  /** The card leads with its failure, as a card without scenarios does when nothing was scored or someone else failed. */
  leadsWithFailure: boolean;
  rows: ScenarioRow[];
  /**
   * Why the round failed beyond its scenarios' own verdicts: the gate's reasons that name no scenario
   * of the card, such as a scenario the repository requires and the card lacks. The table cannot show
   * them, so the first screen states them.
   */
  roundReasons: string[];
}

/** Failing scenarios a headline names before it counts the rest; improved ones fill it up to HEADLINE_ITEMS. */
const HEADLINE_FAILING = 3;
const HEADLINE_ITEMS = 4;

/** Why a scenario did not pass, in a few words: its gate's first reason, or the round's maxRegression. */
function describeShortWhy(card: ScenarioCard, maxRegression: number | null): string {
  if (card.gate.passed) return `regressed beyond gate.maxRegression ${formatBar(maxRegression ?? 1)}`;
  const [first, ...rest] = card.gate.reasons;
  const reason = first ?? card.gate.reason;
  // "no round score: candidate engine failed at startup (…)": the cause after the colon is the news.
  const noScore = /^no round score: (.+)$/.exec(reason);
  const why = noScore ? `no score: ${firstClause(noScore[1] ?? "")}` : firstClause(reason);
  return rest.length > 0 ? `${why} (+${rest.length} more)` : why;
}

/**
 * A scenario's role with the bar its rule compares with: a target's score (or interval's low end) must reach it, a guard's
 * interval's high end (or score, calibrated) must: it fails only when surely slower.
 */
export function describeRole(card: ScenarioCard): string {
  return `${card.gate.role ?? "target"} ≥ ${formatBar(card.gate.bar)}`;
}

function describeRow(
  scenario: ScenarioResult,
  judgement: ScenarioJudgement,
  maxRegression: number | null,
  noVerdict: boolean,
): ScenarioRow {
  const { card } = scenario;
  const interval = card.scoreInterval
    ? `[${formatTimes(card.scoreInterval.low)}, ${formatTimes(card.scoreInterval.high)}]`
    : card.roundScore === null
      ? "—"
      : "none (too few prompts)";
  const mark: VerdictMark = noVerdict ? "⚠️" : judgement.passed ? "✅" : "❌";
  const verdict = noVerdict ? "no verdict" : judgement.passed ? "passed" : describeShortWhy(card, maxRegression);
  return {
    name: scenario.name,
    role: describeRole(card),
    load: describeLoad(card.settings),
    prompts: describePromptSource(card),
    score: formatTimes(card.roundScore),
    interval,
    mark,
    verdict,
    card,
    judgement,
  };
}

/**
 * The headline's account of the scenarios, the ones a reader acts on first: those that regressed or
 * failed, then those that got faster, "+N more" past a few so that 32 scenarios still fit a line.
 */
function describeOutcomes(rows: readonly ScenarioRow[]): string {
  const failing: string[] = [];
  const improved: string[] = [];
  for (const { name, card, judgement } of rows) {
    if (judgement.outcome === "regressed") failing.push(`${name} regressed ${describeScenarioScore(card)}`);
    else if (!judgement.passed) failing.push(`${name} failed (${describeShortWhy(card, null)})`);
    else if (judgement.outcome === "improved") improved.push(`${name} ${formatTimes(card.roundScore)} faster`);
  }
  const shownFailing = failing.slice(0, HEADLINE_FAILING);
  const shownImproved = improved.slice(0, Math.max(1, HEADLINE_ITEMS - shownFailing.length));
  const hidden = failing.length + improved.length - shownFailing.length - shownImproved.length;
  const items = [...shownImproved, ...shownFailing];
  if (items.length === 0) return "none faster or slower beyond its interval";
  return `${items.join("; ")}${hidden > 0 ? `; +${hidden} more in the table` : ""}`;
}

/** The headline and rows of a card with scenarios; null for a card without. */
export function describeScenarios(card: Scorecard): ScenariosDescription | null {
  const scenarios = card.scenarios;
  if (!scenarios || scenarios.length === 0) return null;
  const maxRegression = card.gate.maxRegression ?? null;
  const { judgements } = combineScenarioGates(scenarios.map(readScenarioGate), { maxRegression });
  const noVerdict = decideVerdict(card).outcome === "none";
  const rows = scenarios.map((scenario, index) => describeRow(scenario, judgements[index] as ScenarioJudgement, maxRegression, noVerdict));
  const roundReasons = card.gate.passed
    ? []
    : card.gate.reasons.filter((reason) => !scenarios.some((scenario) => reason.startsWith(`${scenario.name}: `)));
  const nothingScored = scenarios.every((scenario) => scenario.card.roundScore === null);
  // A failure leads the card, before the table: whatever scored before it, the crash is what a reader must see first.
  const leadsWithFailure = card.failure !== null;
  if (card.failure !== null && (noVerdict || nothingScored))
    return { headline: describeVerdict(card, { firstReasonOnly: true }).headline, leadsWithFailure, rows, roundReasons };
  const passed = rows.filter((row) => row.judgement.passed).length;
  const mark: VerdictMark = noVerdict ? "⚠️" : card.gate.passed ? "✅" : "❌";
  if (card.failure) {
    // A failed candidate fails every scenario it touched for the same reason: the failure is the headline's news, first.
    // The event and its kind's label: the failure section right below has the error and frames.
    const event = describeFailureEvent(card.failure);
    const cause = card.failure.label === "" ? event : `${event} (${card.failure.label})`;
    const headline = `${mark} ${cause.charAt(0).toUpperCase()}${cause.slice(1)} — ${passed} of ${rows.length} scenarios passed`;
    return { headline, leadsWithFailure, rows, roundReasons };
  }
  const news = describeOutcomes(rows);
  // "1 of 1 scenarios passed" under ❌ needs its but: the first round-level reason, up to where it says what to do.
  const but = roundReasons[0] ? `, but ${roundReasons[0].split(": ")[0]}` : "";
  return { headline: `${mark} ${passed} of ${rows.length} scenarios passed${but} — ${news}`, leadsWithFailure, rows, roundReasons };
}
