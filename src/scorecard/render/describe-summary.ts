import { describeBudgetStop } from "./describe-budget.js";
import { describeFailureEvent, formatScoreAgainstBar, formatTimes } from "./describe-card.js";
import { runLevelFactor } from "../../scoring/bootstrap-interval.js";
import { decideVerdict } from "../decide-verdict.js";
import type { Scorecard } from "../scorecard-schema.js";
import { MIN_PROMPTS_FOR_INTERVAL } from "../../scoring/evaluate-gate.js";
import { formatBar, formatPercent } from "../../scoring/format-speedup.js";
import { effectiveRegressionFloor } from "../../scoring/judge-regression.js";

/*
 * The first screen of a card in words: the score with its interval, how many prompts counted, the
 * gate's verdict and, when it did not pass, what would change it. Plain text: the Markdown card
 * escapes it, the terminal card prints it. Zero counts are left out here; the card's "How the score
 * was measured" section lists every count.
 */

/** "95% interval 1.21×–1.26×", or why there is none. */
export function describeIntervalBriefly(card: Scorecard): string {
  const interval = card.scoreInterval;
  if (interval) return `${Math.round(interval.confidence * 100)}% interval ${formatTimes(interval.low)}–${formatTimes(interval.high)}`;
  return `no interval with fewer than ${MIN_PROMPTS_FOR_INTERVAL} prompts compared`;
}

/** How far the verdict can be trusted, in a few words: runs, and whether the runner's noise was measured. */
export function describeCaveats(card: Scorecard): string {
  const runs =
    describeBudgetStop(card) ??
    (card.settings.runs === 1
      ? "1 run of each engine"
      : `${card.runs.completed < card.settings.runs ? `${card.runs.completed} of ${card.settings.runs}` : card.settings.runs} runs of ` +
        `each engine`);
  const calibration = card.gate.calibration;
  const noise = !calibration
    ? "noise not calibrated"
    : calibration.problems.length > 0
      ? "the calibration does not fit this round"
      : `noise floor +${formatPercent(calibration.noiseFloor)} (calibrated ${calibration.measuredAt.slice(0, 10)})`;
  return `${runs}, ${noise}`;
}

/** The score line: "1.24× median end-to-end speedup, 95% interval 1.21×–1.26× (1 run of each engine, noise not calibrated)". */
export function describeScore(card: Scorecard): { score: string; rest: string } | null {
  if (card.roundScore === null) return null;
  return {
    score: formatScoreAgainstBar(card.roundScore, card.gate.bar),
    rest: `median end-to-end speedup at equal length, ${describeIntervalBriefly(card)} (${describeCaveats(card)})`,
  };
}

const NOT_SCORED: Array<{ field: "belowTolerance" | "diverged" | "implausible" | "zeroedTotal"; words: string }> = [
  { field: "belowTolerance", words: "below tolerance (answered too little)" },
  { field: "diverged", words: "diverged (answered differently from the baseline)" },
  { field: "implausible", words: "implausible (claimed more tokens than they streamed)" },
  { field: "zeroedTotal", words: "zeroed (the candidate failed on them)" },
];

/** "11 of 12 scored; 1 below tolerance (answered too little)": only the counts that are not zero; each unscored prompt counts as 0. */
export function describePromptCounts(card: Scorecard): string {
  const compared = card.promptsTotal - card.excluded;
  const parts = [`${card.promptsScored} of ${compared} scored`];
  for (const { field, words } of NOT_SCORED) {
    const count = card[field] ?? 0;
    if (count > 0) parts.push(`${count} ${words}`);
  }
  if (card.excluded > 0) parts.push(`${card.excluded} more excluded (the baseline failed on them or answered nothing: they count nowhere)`);
  return parts.join("; ");
}

/** "2 of 10 answers (20%) are none the baseline gave (below tolerance: a, b)…": the count, its noun, and what follows the share. */
const UNEXPLAINED_REASON = new RegExp(
  String.raw`^(\d+) of \d+ (answers|prompts) \([^)]*\) ` +
    String.raw`(are none the baseline gave|were cut short or parted where the baseline's own answers are not) \(([^()]*)\)`,
);

/**
 * The gate's reasons as its row says them, each prompt counted once: prompts that were not scored
 * and are also unexplained (a cut below tolerance is both) are "the same 2 prompts" the second time.
 */
function gateReasons(card: Scorecard): string[] {
  const reasons = card.gate.reasons;
  if (!reasons.some((reason) => / were not scored \(/.test(reason))) return reasons;
  return reasons.map((reason) => {
    const match = UNEXPLAINED_REASON.exec(reason);
    if (!match) return reason;
    const count = Number(match[1]);
    // Answers are per run: only with one run is each a prompt.
    const perPrompt = match[2] === "prompts" || card.settings.runs === 1;
    const unscoredOnly = (match[4] ?? "").split("; ").every((part) => /^(below tolerance|diverged)\b/.test(part));
    if (!perPrompt || !unscoredOnly || count > card.unscored) return reason;
    const said =
      count === 1
        ? `the same prompt ${(match[3] ?? "").replace(/^are /, "is ").replace(/^were /, "was ")}`
        : `the same ${count} prompts ${match[3] ?? ""}`;
    return `${said} (${match[4]})${reason.slice(match[0].length)}`;
  });
}

/** The minority-regression rule's reasons (judge-regression.ts), by their wording. */
const REGRESSION_REASON = /scored below gate\.regressionFloor|^E2E p90 at equal length|^output throughput /;

/** Regressed prompts a first screen names; the gate's reason and the card's regression list hold more. */
const NAMED_REGRESSED = 10;

/**
 * The prompts that scored under gate.regressionFloor, slowest first with how much slower, and the
 * round's E2E p90 and throughput against the baseline's: "8 of 30 prompts scored under 0.80×: p2
 * 0.36×, p6 0.49×, … (E2E p90 1.60×, output throughput 0.82× the baseline's)". Null when none did.
 */
export function describeRegressedPrompts(card: Scorecard): string | null {
  const regression = card.regression;
  if (!regression || regression.regressedTotal === 0) return null;
  const compared = card.promptsTotal - card.excluded;
  const floor = effectiveRegressionFloor(card.gate);
  const named = regression.regressed.slice(0, NAMED_REGRESSED).map((prompt) => `${prompt.id} ${formatTimes(prompt.score)}`);
  const more = regression.regressedTotal > named.length ? `, ${regression.regressedTotal - named.length} more` : "";
  const ratios = [
    ...(regression.e2eP90 !== null ? [`E2E p90 ${formatTimes(regression.e2eP90)}`] : []),
    ...(regression.throughput !== null ? [`output throughput ${formatTimes(regression.throughput)}`] : []),
  ];
  const against = ratios.length > 0 ? ` (${ratios.join(", ")} the baseline's)` : "";
  return (
    `${regression.regressedTotal} of ${compared} prompt${compared === 1 ? "" : "s"} scored under ${formatBar(floor)}: ` +
    `${named.join(", ")}${more}${against}`
  );
}

/**
 * Which measure let the candidate's unexplained answers through, when some were and the rule did not
 * fail the gate (a failing rule says it in the gate's reasons): "2 of 64 answers … are none the
 * baseline gave: within the engine's own variation (…)". Null otherwise.
 */
export function describeUnexplainedDecision(card: Scorecard): string | null {
  const decision = card.gate.unexplainedDecision;
  if (!decision || (card.unexplainedAnswers?.count ?? 0) === 0) return null;
  return decision.rule === "allowance" || decision.rule === "within-variation" ? decision.statement : null;
}

/** The gate's verdict with every reason: passes, does not pass, or no verdict when someone else failed. */
export function describeGate(card: Scorecard): { mark: "✅" | "❌" | "⚠️"; text: string } {
  if (decideVerdict(card).outcome === "none") return { mark: "⚠️", text: `no verdict: ${card.gate.reasons.join("; ")}` };
  if (card.gate.passed) return { mark: "✅", text: `passes: ${card.gate.reason}` };
  return { mark: "❌", text: `does not pass: ${gateReasons(card).join("; ")}` };
}

/**
 * What would change a verdict that did not pass, one short sentence per reason; null when it passed,
 * gave no verdict, or had no score (the failure section says what to do then).
 */
export function describeNextStep(card: Scorecard): string | null {
  if (card.gate.passed || card.roundScore === null || decideVerdict(card).outcome !== "fail") return null;
  const steps: string[] = [];
  if (card.failure)
    steps.push(`A candidate that fails never passes: the ${describeFailureEvent(card.failure)}; why, and what to try, is above.`);
  const compared = card.promptsTotal - card.excluded;
  const tooManyUnscored = compared > 0 && card.unscored / compared > card.gate.maxUnscored;
  const prompts = (count: number): string => `${count} prompt${count === 1 ? "" : "s"}`;
  if (tooManyUnscored && card.belowTolerance > 0)
    steps.push(`Find why the candidate stops early on ${prompts(card.belowTolerance)}: speed from answering less does not count.`);
  if (tooManyUnscored && (card.diverged ?? 0) > 0)
    steps.push(`Find why the candidate's answer differs from the baseline's on ${prompts(card.diverged)}.`);
  if (tooManyUnscored && card.zeroedTotal > 0 && !card.failure)
    steps.push(`Find why the candidate failed on ${prompts(card.zeroedTotal)}: each reason is in the per-prompt results.`);
  if (compared < card.gate.minPrompts) steps.push(`Score more prompts: gate.minPrompts is ${card.gate.minPrompts}.`);
  if (card.gate.reasons.some((reason) => REGRESSION_REASON.test(reason)))
    steps.push("Find why some requests got slower while the median got faster: a scheduler that serves some prompts last does this.");
  const quality = card.quality?.judgement;
  if (quality?.dropped)
    steps.push(
      `Find why the candidate gets ${quality.baselineOnly.length} question${quality.baselineOnly.length === 1 ? "" : "s"} wrong that ` +
        "the baseline gets right (listed under Questions answered differently): a faster engine that answers worse does not pass.",
    );
  const rule = card.gate.rule;
  if (rule && card.gate.reasons.includes(rule) && card.roundScore < card.gate.bar)
    steps.push("By this measure the candidate is not faster than the bar.");
  return steps.length > 0 ? steps.join(" ") : null;
}

/**
 * A round that only the width of its interval failed: the score clears the bar, its interval's low
 * end does not, and nothing else kept the gate closed. Its author has nothing to fix, and the
 * settings that narrow the interval are the maintainers', so each reader gets a line of their own.
 * Null for any other verdict.
 */
export function describeInconclusive(card: Scorecard): { author: string; maintainers: string } | null {
  const rule = card.gate.rule;
  const sequential = card.sequential;
  if (card.gate.use === "sequential" && sequential) {
    // Undecided at the budget's last run, with nothing but the rule keeping the gate closed.
    if (card.gate.passed || sequential.stop !== "budget" || sequential.decision !== "undecided") return null;
    if (!rule || card.gate.reasons.length !== 1 || card.gate.reasons[0] !== rule) return null;
    const can = sequential.detectable !== null ? ` (${formatTimes(sequential.detectable)} here)` : "";
    return {
      author: "No speedup this runner can tell from its noise within the budget: nothing to fix in the patch.",
      maintainers:
        `The budget ran out before the test decided: the smallest speedup it can show shrinks with a larger bench.runs max${can}, ` +
        "a calibration of this runner (speedgate calibrate, gate.calibration), a runner whose engine starts differ less, or a pace " +
        "the baseline keeps up with (bench.requestIntervalMs).",
    };
  }
  if (card.gate.passed || card.roundScore === null || card.gate.use !== "interval-low" || card.roundScore < card.gate.bar) return null;
  // With unscored prompts the low end is low because of their zeros: those are the patch's to explain.
  if (!rule || card.gate.reasons.length !== 1 || card.gate.reasons[0] !== rule || card.unscored > 0) return null;
  const compared = card.promptsTotal - card.excluded;
  // Two runs widen the interval most of all (Student's t with one degree of freedom): say so first.
  const runs =
    card.settings.runs === 2
      ? `bench.runs 3 or more (2 now: with two runs the interval pushes each run's level out ${runLevelFactor(2).toFixed(1)}×, with 3 ` +
        `${runLevelFactor(3).toFixed(1)}×)`
      : `more bench.runs (${card.settings.runs} now)`;
  return {
    author: "No measurable speedup at this runner's noise: nothing to fix in the patch.",
    maintainers:
      `The interval is too wide to decide: ${runs}, more prompts (${compared} compared), ` +
      "a calibration of this runner (speedgate calibrate, gate.calibration) or a pace the baseline keeps up with " +
      "(bench.requestIntervalMs) narrows it.",
  };
}
