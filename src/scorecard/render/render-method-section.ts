import { markdownTable } from "markdown-table";
import { describeInterval, describeNoise, describeRuns, describeUnscored, formatPercent, formatScoreAgainstBar } from "./describe-card.js";
import { countingSentence, integrityRows } from "./describe-integrity.js";
import { describeCaveats, describeGate, describeIntervalBriefly, describeScore } from "./describe-summary.js";
import { escapeInline } from "../../safe-text/escape-engine-text.js";
import { renderFold, renderKeyValueTable } from "./render-key-value-table.js";
import type { Scorecard } from "../scorecard-schema.js";
import { describeSyntheticPrompts } from "./describe-synthetic-prompts.js";
import { describeTimeSpent } from "./describe-time-spent.js";
import { renderTimeSpent } from "./render-time-spent.js";
import { formatBar } from "../../scoring/format-speedup.js";

export const SCORING_RULE_SENTENCE =
  "The round score is the median, over prompts, of the candidate's end-to-end speedup against the baseline. " +
  "Both engines are compared at the same output token count, so a candidate that stops early cannot buy speed by answering less: " +
  "a prompt under the tolerance bar scores nothing and shows its gate reason. " +
  "Each answer is held to every answer the baseline gave the prompt over the round's runs (a batching engine answers some prompts " +
  "more than one way at temperature 0): " +
  "one the baseline gave in any run is timed against that answer; one that parts from all of them is timed only up to where it parts " +
  "and counts as unexplained, " +
  "and scores nothing (diverged) when it parts within its first bench.agreementTokens tokens, or agrees on no more than " +
  "bench.minPromptAgreement of the compared length, on a prompt the baseline answered one way in every run. " +
  "With several runs, each prompt's speedups combine by their geometric mean, and a prompt left unscored in any run scores nothing. " +
  "The gate never passes when the candidate engine failed, when more than gate.maxUnscored of the prompts went unscored, " +
  "when the median agreement is under gate.minAgreement, when more unexplained answers than gate.maxUnexplained allows come up than " +
  "shuffling the two engines' answers gives or far more than the baseline's own variation gives (or any, with one run), " +
  "when more than gate.maxRegressedPrompts of the prompts score under gate.regressionFloor or the E2E p90 or throughput is worse " +
  "than that floor allows, " +
  "or with fewer than gate.minPrompts prompts; " +
  "otherwise the interval's low end (not calibrated) or the round score (against the bar raised by the calibrated noise floor) must " +
  "clear the bar. " +
  "The same inputs and output limits apply to every engine; actual concurrency depends on response duration and engine scheduling.";

/**
 * What a run budget adds to the rule, on its cards only: a card of a fixed number of runs reads as it
 * did before budgets.
 */
export const SEQUENTIAL_RULE_SENTENCE =
  "With a run budget (bench.runs { min, max }) the rule is a sequential test: after each pair of runs (one with the baseline first, " +
  "one with the candidate first) it compares the runs' mean log score with the bar, in standard errors read from how much each " +
  "engine's starts differ (or from a calibration), against bounds that spend a one-sided error of 4% over all the looks " +
  "(Lan–DeMets); the round passes when a look reaches its bound and nothing else keeps the gate closed, fails when the upper bound " +
  "rules out a speedup of 1.1× the bar, and otherwise goes on, until the budget's last run. Reasons more runs do not fix (an engine " +
  "failure, too few prompts, and cuts, partings or unexplained answers while the baseline's answers never varied) stop it at once.";

/** Every count, zeros included, with what it means: the first screen names only the counts that are not zero. */
function countsTable(card: Scorecard): string {
  const score =
    card.roundScore === null
      ? "— (no prompt was scored)"
      : `${formatScoreAgainstBar(card.roundScore, card.gate.bar)} (${describeIntervalBriefly(card)}): the median over prompts of the ` +
        `candidate's end-to-end speedup at equal output length`;
  const rows: string[][] = [["Round score", score]];
  const intervalWords = describeInterval(card);
  if (intervalWords) rows.push(["Interval", escapeInline(intervalWords)]);
  rows.push(
    ["Runs", escapeInline(describeRuns(card))],
    ["Noise", escapeInline(describeNoise(card))],
    ["Prompts scored", `${card.promptsScored} / ${card.promptsTotal}`],
    ["Below tolerance", `${card.belowTolerance}: answered too little to score`],
    ...integrityRows(card),
    [
      "Zeroed",
      `${card.zeroedTotal}: the candidate failed on them (an error, a broken stream, or the engine had died), so each counts as 0`,
    ],
    ["Unscored", escapeInline(describeUnscored(card))],
  );
  if (card.excluded > 0)
    rows.push(["Excluded", `${card.excluded}: the baseline failed on them or answered nothing, so they count nowhere`]);
  // The gate once: a scored card (or scenario) states it in the summary table above the fold; a card
  // without a score leads with its failure instead, and states the gate only here.
  if (!describeScore(card)) {
    const gate = describeGate(card);
    rows.push(["Gate", `${gate.mark} ${escapeInline(gate.text)}`]);
  }
  return renderKeyValueTable(rows);
}

function settingsTable(card: Scorecard): string {
  const s = card.settings;
  // A closed loop has no pace: its load is how many requests it keeps in flight.
  const closedLoop = s.concurrency !== null && s.concurrency !== undefined;
  return markdownTable(
    [
      [closedLoop ? "Load" : "Request interval", "Runs", "Thinking", "Context limit", "Max tokens", "Tolerance", "Model"],
      [
        closedLoop ? `concurrency ${s.concurrency}` : `${s.requestIntervalMs} ms${s.arrival === "poisson" ? " (Poisson mean)" : ""}`,
        s.budget ? `${s.budget.min} to ${s.budget.max} (a budget)` : String(s.runs),
        s.thinking ? "on" : "off",
        s.contextLimit.toLocaleString("en-US"),
        s.maxTokens.toLocaleString("en-US"),
        formatPercent(s.tolerance),
        escapeInline(s.model),
      ],
    ],
    { alignDelimiters: false },
  );
}

/** What a round with scenarios adds to the rule: each scenario scored alone, and the round's gate over them all. */
function scenariosSentence(card: Scorecard): string {
  const maxRegression = card.gate.maxRegression ?? null;
  const limit =
    maxRegression === null
      ? "(gate.maxRegression is not set: no further limit on how far a scenario may regress within its own gate)"
      : `and no scenario's interval lies wholly below gate.maxRegression ${formatBar(maxRegression)} (its high end, or its score ` +
        `without an interval, must reach it)`;
  return (
    `Each of the ${card.scenarios?.length ?? 0} scenarios is scored as a round of its own, on its own prompts and load and against ` +
    `its own gate, by the rule below; ` +
    `each engine is started once a run and serves every scenario of that run in turn. The round passes when every scenario passes ` +
    `its gate ${limit}.`
  );
}

/**
 * One scenario's counts and settings, folded inside its own section of a card with scenarios: the
 * rule and who counted the tokens are the round's, said once in the round's method section.
 */
export function renderScenarioMethod(card: Scorecard): string {
  const parts = [countsTable(card), settingsTable(card), describeSyntheticPrompts(card)].filter((part) => part !== "");
  return renderFold(
    `How this scenario was measured: every count and its settings (${escapeInline(describeCaveats(card))})`,
    parts.join("\n\n"),
  );
}

/**
 * How the score was measured, folded: every count, the round's settings, where the round's time
 * went, the scoring rule and who counted the tokens. The place for what a reader checks once, not
 * on every card: the rule's text, what an uncalibrated verdict gives up, how agreement is judged.
 * With scenarios, each one's counts and settings are in its own section: this one says how the
 * round's gate combines them. The verdict itself is on the first screen, never repeated here.
 */
export function renderMethodSection(card: Scorecard): string {
  const estimate = card.tokenCountsEstimated
    ? "Token counts are estimates (one token a streamed delta, spread to the final usage): the server did not report them per chunk."
    : "";
  const time = card.timeSpent ? describeTimeSpent(card.timeSpent) : null;
  const timeSection = renderTimeSpent(card);
  const budgetRule =
    card.settings.budget || card.scenarios?.some((scenario) => scenario.card.settings.budget) ? SEQUENTIAL_RULE_SENTENCE : "";
  if (card.scenarios && card.scenarios.length > 0) {
    const parts = [scenariosSentence(card), timeSection, SCORING_RULE_SENTENCE, budgetRule, estimate, countingSentence(card)];
    const summary =
      `How the score was measured: how the scenarios combine, where the ` + `time went and the rule${time ? ` (${time.brief})` : ""}`;
    return renderFold(summary, parts.filter((part) => part !== "").join("\n\n"));
  }
  const parts = [
    countsTable(card),
    settingsTable(card),
    describeSyntheticPrompts(card),
    timeSection,
    SCORING_RULE_SENTENCE,
    budgetRule,
    estimate,
    countingSentence(card),
  ].filter((part) => part !== "");
  const caveats = `${describeCaveats(card)}${time ? `, ${time.brief}` : ""}`;
  return renderFold(`How the score was measured: every count, the settings and the rule (${escapeInline(caveats)})`, parts.join("\n\n"));
}
