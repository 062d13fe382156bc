import { describeBudgetStop } from "./describe-budget.js";
import { formatBar, formatPercent, formatPercentAgainst, formatScoreAgainstBar, formatTimes } from "../../scoring/format-speedup.js";
import { MIN_PROMPTS_FOR_INTERVAL } from "../../scoring/evaluate-gate.js";
import { runSpeedup } from "../../scoring/score-round.js";
import { type VerdictOutcome, decideVerdict } from "../decide-verdict.js";
import type { RunnerFault } from "../find-runner-fault.js";
import type { PromptResult, PromptRun, Scorecard } from "../scorecard-schema.js";

export { formatPercent, formatScoreAgainstBar, formatTimes };

/*
 * Wording shared by the Markdown card, the terminal card, the check run's title and the action's
 * annotations, so that each says the same thing in the same words.
 */

type Failure = NonNullable<Scorecard["failure"]>;

export function formatMs(value: number | null): string {
  if (value === null) return "—";
  return value >= 100 ? `${Math.round(value).toLocaleString("en-US")}` : value.toFixed(1);
}

const INFRASTRUCTURE_WHEN: Record<Failure["stage"], string> = {
  patch: "while the {who} was being prepared",
  build: "while the {who} was being prepared",
  startup: "while the {who} was starting",
  benchmark: "during the {who}'s benchmark",
};

/** How a crash ended the engine, where "died" would hide that it stopped on its own assertion. */
const CRASH_VERBS: Partial<Record<Failure["kind"], string>> = { assertion_failed: "aborted", fatal_signal: "crashed" };

/** What went wrong, in the words of the stage it went wrong at. */
export function describeFailureEvent(failure: Failure): string {
  const who = `${failure.engine} engine`;
  if (failure.kind === "infrastructure") {
    // The label names what went away ("the Docker daemon went away (infrastructure, not the patch)"); the engine only was running.
    const what = failure.label.replace(/\s*\([^)]*\)\s*$/, "");
    const when = INFRASTRUCTURE_WHEN[failure.stage].replace("{who}", who);
    return `${what} ${when}${failure.stage === "benchmark" && failure.scenario ? ` (scenario ${failure.scenario})` : ""}`;
  }
  if (failure.kind === "image_base_mismatch") return "the engine image could not be brought to the base commit";
  switch (failure.stage) {
    case "patch":
      return failure.kind === "patch_tool_missing"
        ? `${who}: the image has neither git nor patch to apply the patch`
        : `${failure.engine} patch does not apply`;
    case "build":
      // The process runtime builds no image (its postPatch steps build in a copy): the label says which it was.
      return failure.kind === "build_timeout" ? `${failure.engine} build timed out` : `${failure.engine} build failed`;
    case "startup":
      if (failure.kind === "startup_timeout") return `${who} never became healthy`;
      if (failure.kind === "cancelled") return `${who} start was cancelled`;
      if (failure.kind === "gpu_unavailable" || failure.kind === "image_missing" || failure.kind === "container_refused") {
        return `${who} could not be started`;
      }
      return `${who} ${CRASH_VERBS[failure.kind] ?? "died"} before becoming healthy`;
    case "benchmark": {
      if (failure.kind === "cancelled") return `${who} run was cancelled`;
      // A round with scenarios benchmarks each engine once per scenario: which one it was serving is where to look.
      const benchmark = failure.scenario ? `scenario ${failure.scenario}'s benchmark` : "the benchmark";
      const during = failure.prompt ? `during prompt ${failure.prompt.number} of ${benchmark}` : `during ${benchmark}`;
      return `${who} ${CRASH_VERBS[failure.kind] ?? "died"} ${during}`;
    }
  }
}

/** The bar in the headline's words: what must clear what. */
export function describeBar(gate: Scorecard["gate"]): string {
  // A guard fails only when surely slower: its interval's high end (its score, calibrated or by round-score) must reach its bar.
  if (gate.role === "guard") return `guard: ${gate.use === "interval-low" ? "interval high" : "score"} ≥ ${formatBar(gate.bar)}`;
  switch (gate.use) {
    case "interval-low":
      return `gate interval low ≥ ${formatBar(gate.bar)}`;
    case "round-score":
      return `gate ≥ ${formatBar(gate.bar)}`;
    case "noise-floor":
      return gate.calibration && gate.calibration.problems.length === 0
        ? `gate ≥ ${formatBar(gate.bar)}: ${formatBar(gate.minRoundScore)} + noise floor ${formatPercent(gate.calibration.noiseFloor)}`
        : `gate ≥ ${formatBar(gate.minRoundScore)} + noise floor`;
    case "sequential":
      return `gate sequential lower bound ≥ ${formatBar(gate.bar)}`;
  }
}

/** Longest detail a headline quotes from a failure's summary. */
const HEADLINE_DETAIL_CHARS = 160;

/**
 * What failed and, in brackets, what kind of failure, without saying the same thing twice: a patch
 * that does not apply names the file and hunk from its summary instead of "the patch does not apply".
 */
export function describeFailureCause(failure: Failure): string {
  const event = describeFailureEvent(failure);
  const summary =
    failure.summary.length > HEADLINE_DETAIL_CHARS ? `${failure.summary.slice(0, HEADLINE_DETAIL_CHARS - 1)}…` : failure.summary;
  // A conflict's summary and an assertion's line are what a reader needs first; a kind's label says less.
  const detail =
    failure.kind === "patch_conflict" && summary !== ""
      ? summary
      : failure.kind === "assertion_failed" && summary !== ""
        ? placeAssertion(summary)
        : failure.label;
  const restates = (a: string, b: string): boolean => a.toLowerCase().includes(b.toLowerCase().replace(/^the /, ""));
  return detail === "" || restates(event, detail) || (failure.stage === "patch" && failure.kind !== "patch_conflict")
    ? event
    : `${event} (${detail})`;
}

/**
 * An assertion line with its place moved after it, the folders dropped: "/src/llama.cpp/src/llama-context.cpp:1722:
 * GGML_ASSERT(n <= b) failed" reads "GGML_ASSERT(n <= b) failed at llama-context.cpp:1722". Lines of other shapes
 * (Python's AssertionError, a C++ exception) are kept as they are.
 */
function placeAssertion(summary: string): string {
  const placed = /^(?:\S*\/)?([^/\s:]+:\d+): (.+)$/.exec(summary);
  return placed ? `${placed[2]} at ${placed[1]}` : summary;
}

/** The runner's fault in a headline's words: what held which GPU before the candidate started. */
function describeRunnerFaultBriefly(fault: RunnerFault): string {
  const gpu = fault.gpu === null ? "the GPU" : `GPU ${fault.gpu}`;
  const held = fault.mainHolder ? `${gpu} was held by ${fault.mainHolder},` : `${fault.heldGiB ?? "memory"} of ${gpu} was in use`;
  return `${held} when the candidate started`;
}

/** One line for a headline, a check title or an annotation, and the verdict it states. */
export function describeVerdict(
  card: Scorecard,
  options: { firstReasonOnly?: boolean } = {},
): { passed: boolean; outcome: VerdictOutcome; headline: string } {
  const verdict = decideVerdict(card);
  const none = (headline: string) => ({ passed: false, outcome: "none" as const, headline: `⚠️ No verdict: ${headline}` });
  switch (verdict.cause) {
    case "infrastructure":
      return none(`the infrastructure failed, not the patch (${describeFailureEvent(card.failure as Failure)})`);
    case "image": {
      // The summary's first clause names the image and both commits; the reason after it is the card's to give.
      const summary = (card.failure as Failure).summary;
      return none(
        `the engine image does not fit the base commit, neither engine nor the patch failed (${summary.split(": ")[0] ?? summary})`,
      );
    }
    case "baseline":
      return none(
        `the baseline failed, not the patch (${describeFailureEvent(card.failure as Failure)}: ${(card.failure as Failure).label})`,
      );
    case "runner":
      return none(`the runner's GPU was busy, not the patch (${describeRunnerFaultBriefly(verdict.runnerFault as RunnerFault)})`);
    case "nothing_compared":
      return none("the baseline answered none of the prompts, so there is nothing to compare with");
    case null:
      break;
  }
  if (card.roundScore === null) {
    const why = card.failure ? describeFailureCause(card.failure) : card.gate.reason.replace(/^no round score: /, "");
    return { passed: false, outcome: "fail", headline: `❌ No prompt scores: ${why}` };
  }
  const score = `Round score ${formatScoreAgainstBar(card.roundScore, card.gate.bar)}`;
  // The candidate failed mid-round: the crash is the news, before any score (which measured only what ran before it).
  if (card.failure) {
    // The event and its kind's label: the failure section below, the first thing under the headline, has the error and frames.
    const event = describeFailureEvent(card.failure);
    const cause = card.failure.label === "" ? event : `${event} (${card.failure.label})`;
    return {
      passed: card.gate.passed,
      outcome: verdict.outcome,
      headline:
        `${card.gate.passed ? "✅" : "❌"} ${cause.charAt(0).toUpperCase()}${cause.slice(1)}; round score before it ` +
        formatTimes(card.roundScore),
    };
  }
  // When something other than the rule keeps the gate closed (a crash, truncated answers, too few
  // prompts), the headline says so: a score above the bar with a ❌ must not look like a mistake.
  const others = card.gate.reasons.filter((reason) => reason !== card.gate.rule);
  if (others.length === 0)
    return {
      passed: card.gate.passed,
      outcome: verdict.outcome,
      headline: `${card.gate.passed ? "✅" : "❌"} ${score}${describeDecider(card)}`,
    };
  // The card's heading gives the first such reason only, in its first clause: its gate row lists them
  // all, and a heading of every reason (a cut is often both unscored and unexplained) filled the first screen.
  const more = others.length - 1 + (card.gate.reasons.includes(card.gate.rule ?? "") ? 1 : 0);
  const shown = options.firstReasonOnly
    ? `${firstClause(others[0] ?? "")}${more > 0 ? ` (+${more} more reason${more === 1 ? "" : "s"})` : ""}`
    : others.join("; ");
  return { passed: card.gate.passed, outcome: verdict.outcome, headline: `❌ ${score}, but ${shown}` };
}

/** A reason's first clause, without its parentheses: "2 of 10 prompts were not scored". */
export function firstClause(reason: string): string {
  const plain = reason.replace(/ \([^()]*\)/g, "");
  return plain.split(/[,;:] /)[0] ?? plain;
}

/**
 * The number that decided a verdict the rule alone gave, against the bar: " clears the gate's 1.00×",
 * ", but the interval's low end 0.91× is below the gate's 1.00×".
 */
function describeDecider(card: Scorecard): string {
  const { gate } = card;
  const score = card.roundScore ?? 0;
  const floor =
    gate.use === "noise-floor" && gate.calibration && gate.calibration.problems.length === 0 ? gate.calibration.noiseFloor : null;
  const guard = gate.role === "guard";
  const raised =
    floor === null
      ? ""
      : guard
        ? ` (1 − gate.margin, lowered by the noise floor ${formatPercent(floor)})`
        : ` (${formatBar(gate.minRoundScore)} + noise floor ${formatPercent(floor)})`;
  const bar = (against: number): string => `the ${guard ? "guard" : "gate"}'s ${formatBar(gate.bar, against)}${raised}`;
  const high = card.scoreInterval?.high ?? null;
  if (guard && gate.use === "interval-low" && high !== null) {
    const highShown = formatScoreAgainstBar(high, gate.bar);
    return gate.passed
      ? `; the interval's high end ${highShown} reaches ${bar(high)}`
      : `, and the interval's high end ${highShown} is below ${bar(high)}`;
  }
  const sequential = gate.use === "sequential" ? card.sequential : undefined;
  if (!guard && sequential && !gate.passed && sequential.decision === "undecided") {
    // Above the bar, but not by what the runs so far can tell from their noise.
    const last = sequential.looks.at(-1);
    const lowShown = last ? `, its lower bound ${formatScoreAgainstBar(last.low, gate.bar)} below ${bar(last.low)}` : "";
    return `, undecided after ${card.runs.completed} runs of each engine${lowShown}`;
  }
  const low = card.scoreInterval?.low ?? null;
  if (!guard && gate.use === "interval-low" && low !== null) {
    const lowShown = formatScoreAgainstBar(low, gate.bar);
    if (gate.passed) return `; the interval's low end ${lowShown} clears ${bar(low)}`;
    return score >= gate.bar ? `, but the interval's low end ${lowShown} is below ${bar(low)}` : ` is below ${bar(score)}`;
  }
  if (gate.passed) return ` clears ${bar(score)}`;
  return score >= gate.bar ? ` (${describeBar(gate)})` : ` is below ${bar(score)}`;
}

/** A run's score as the card's data gives it: recomputed from its times, never read from a score field. */
export function runScoreOnCard(run: PromptRun, prompt: PromptResult): number | null {
  if (run.status === "excluded") return null;
  if (run.status !== "scored") return 0;
  return runSpeedup(run) ?? prompt.speedup;
}

/** Each run's score of a prompt, such as "1.08 / 1.11 / 0" (— where the baseline failed in that run). */
export function formatRunScores(prompt: PromptResult, separator = " / "): string {
  return prompt.runs
    .map((run) => {
      const score = runScoreOnCard(run, prompt);
      return score === null ? "—" : score === 0 ? "0" : score.toFixed(2);
    })
    .join(separator);
}

/** What the interval covers, in words; null when there is no score to have one. */
export function describeInterval(card: Scorecard): string | null {
  if (card.roundScore === null) return null;
  if (!card.scoreInterval) {
    const compared = card.promptsTotal - card.excluded;
    return compared < MIN_PROMPTS_FOR_INTERVAL ? `none: fewer than ${MIN_PROMPTS_FOR_INTERVAL} prompts compared (${compared})` : "none";
  }
  const sequential = card.sequential;
  if (sequential && sequential.looks.length > 0) {
    const from =
      sequential.spread === "calibrated"
        ? "the run-to-run spread the calibration's A/A rounds measured"
        : sequential.spread === "starts"
          ? "how much each engine's starts differed in speed"
          : "how much the run scores differed (too few prompts were timed alike in every run to tell the starts apart)";
    return (
      `the sequential test's bound after ${card.runs.completed} runs of each engine, which holds at every look the test took ` +
      `(a repeated confidence interval): it is read from ${from}`
    );
  }
  if (card.runs.completed > 1)
    return `a bootstrap over the ${card.runs.completed} runs and the prompts: it includes how much engine starts differ in speed`;
  return (
    "a bootstrap over prompts: it covers prompt-to-prompt variation only, not how much engine starts differ in speed (one run of each " +
    "engine)"
  );
}

/** The runs and their spread, in words. */
export function describeRuns(card: Scorecard): string {
  const planned = card.settings.runs;
  if (planned === 1) return "1 of each engine (bench.runs: 1): run-to-run variation is not measured";
  const scores = card.runs.scores.filter((score): score is number => score !== null);
  const done = describeBudgetStop(card) ?? (card.runs.completed < planned ? `${card.runs.completed} of ${planned}` : `${planned}`);
  const each = card.runs.scores.map((score) => formatTimes(score)).join(", ");
  const spread = scores.length > 1 ? ` (spread ${formatTimes(Math.min(...scores))}–${formatTimes(Math.max(...scores))})` : "";
  const order =
    card.settings.order === "counterbalanced"
      ? "counterbalanced (the baseline first in odd runs, the candidate first in even ones)"
      : "interleaved, the baseline first in every run";
  return `${done}, ${order}, each engine restarted every run; run scores ${each}${spread}`;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The noise floor the gate used, or that the verdict is not calibrated, in words. */
/**
 * What this round's own noise let it detect, under the interval rule: a candidate s times faster than
 * this one would have scored s times higher, interval included (every time it takes scales by 1/s),
 * so the smallest round score that passes is the bar times the score over the interval's low end.
 * Null without an interval or under another rule.
 */
export function describeReach(card: Scorecard): string | null {
  const interval = card.scoreInterval;
  if (card.gate.use !== "interval-low" || !interval || card.roundScore === null || interval.low <= 0 || card.roundScore <= 0) return null;
  const needed = card.gate.bar * (card.roundScore / interval.low);
  const spread = 1 - interval.low / card.roundScore;
  return (
    `at this round's noise (its interval reaches ${formatPercent(spread)} below its score) the smallest round score that passes is ` +
    `${needed.toFixed(3)}×; ` +
    "more prompts, more runs (bench.runs), a slower pace (bench.requestIntervalMs) or a calibration lower it"
  );
}

export function describeNoise(card: Scorecard): string {
  const calibration = card.gate.calibration;
  const sequential = card.gate.use === "sequential" ? card.sequential : undefined;
  if (!calibration && sequential) {
    const spread = sequential.runSpread !== null ? ` (run scores spread ${formatPercent(sequential.runSpread)} from run to run)` : "";
    const can =
      sequential.detectable !== null
        ? `; at that spread the smallest speedup this runner can show in ${sequential.budget.max} runs is ` +
          `${formatTimes(sequential.detectable)}`
        : "";
    return (
      `not calibrated: the sequential test reads this runner's run-to-run spread from the round's own engine starts${spread}, ` +
      `and holds an unchanged engine to ${formatPercent(sequential.alpha)} of rounds whatever that spread is${can}; a calibration ` +
      "(speedgate calibrate, gate.calibration) lets it decide from the first pair with a spread it already knows"
    );
  }
  if (!calibration) {
    const reach = describeReach(card);
    const givenUp =
      card.settings.runs === 1
        ? "with one run that interval cannot see how much engine starts differ, so an unchanged engine can pass (about 1 round in 5 " +
          "where starts differ by 2%)"
        : `it takes ${card.settings.runs} runs of each engine and a larger speedup to clear the bar than a calibrated gate ` +
          `needs${reach ? "" : ", and the card cannot say which speedup this runner detects"}`;
    return (
      `not calibrated: this runner's noise was never measured (speedgate calibrate, gate.calibration), so the verdict rests on this ` +
      `round's interval alone; ${givenUp}${reach ? `; ${reach}` : ""}`
    );
  }
  const measured = calibration.measuredAt.slice(0, 10);
  const age = Math.floor((Date.parse(card.createdAt) - Date.parse(calibration.measuredAt)) / DAY_MS);
  const ago =
    Number.isFinite(age) && age >= 0 ? ` (${age === 0 ? "the same day as" : `${age} day${age === 1 ? "" : "s"} before`} this round)` : "";
  const where = [calibration.runner ? `runner ${calibration.runner}` : null, calibration.gpu].filter((part) => part !== null).join(", ");
  const parts = [
    `noise floor +${formatPercent(calibration.noiseFloor)} from ${calibration.scores.length} A/A ` +
      `rounds${where ? ` on ${where}` : ""}, measured ${measured}${ago}; a speedup of ${formatPercent(calibration.detectableSpeedup)} ` +
      `over the bar passes 95% of the time`,
  ];
  if (sequential) parts.push(`the sequential test reads the run-to-run spread from those A/A rounds`);
  else if (card.gate.use !== "noise-floor") parts.push(`not used: gate.use is ${card.gate.use}`);
  for (const problem of calibration.problems) parts.push(`does not fit: ${problem}`);
  for (const note of calibration.notes) parts.push(note);
  return parts.join("; ");
}

/** The unscored share against gate.maxUnscored, in words. */
export function describeUnscored(card: Scorecard): string {
  const compared = card.promptsTotal - card.excluded;
  const share = compared > 0 ? card.unscored / compared : 0;
  return (
    `${card.unscored} of ${compared} compared (${formatPercentAgainst(share, card.gate.maxUnscored)}); gate.maxUnscored allows ` +
    `${formatPercent(card.gate.maxUnscored)}`
  );
}
