import type { Scorecard } from "./scorecard-schema.js";

/*
 * Wording shared by the Markdown card, the terminal card, the check run's title and the action's
 * annotations, so that each says the same thing in the same words.
 */

type Failure = NonNullable<Scorecard["failure"]>;

export function formatTimes(value: number | null): string {
  if (value === null) return "—";
  // Two decimals hide a miss at the bar (0.996× reads as 1.00×); show more until it is visible.
  return `${value.toFixed(Math.abs(value) >= 100 ? 1 : value !== 0 && Math.abs(value) < 0.01 ? 4 : 2)}×`;
}

export function formatScoreAgainstBar(value: number, bar: number): string {
  for (let digits = 2; digits <= 6; digits++) {
    const shown = value.toFixed(digits);
    if (shown !== bar.toFixed(digits) || value === bar) return `${shown}×`;
  }
  return `${value.toFixed(6)}×`;
}

export function formatMs(value: number | null): string {
  if (value === null) return "—";
  return value >= 100 ? `${Math.round(value).toLocaleString("en-US")}` : value.toFixed(1);
}

export function formatPercent(fraction: number): string {
  return `${Math.round(fraction * 1000) / 10}%`;
}

const INFRASTRUCTURE_WHEN: Record<Failure["stage"], string> = {
  patch: "while the {who} was being prepared",
  build: "while the {who} was being prepared",
  startup: "while the {who} was starting",
  benchmark: "during the {who}'s benchmark",
};

/** What went wrong, in the words of the stage it went wrong at. */
export function describeFailureEvent(failure: Failure): string {
  const who = `${failure.engine} engine`;
  if (failure.kind === "infrastructure") {
    // The label names what went away ("the Docker daemon went away (infrastructure, not the patch)"); the engine only was running.
    const what = failure.label.replace(/\s*\([^)]*\)\s*$/, "");
    return `${what} ${INFRASTRUCTURE_WHEN[failure.stage].replace("{who}", who)}`;
  }
  switch (failure.stage) {
    case "patch":
      return failure.kind === "patch_tool_missing"
        ? `${who}: the image has neither git nor patch to apply the patch`
        : `${failure.engine} patch does not apply`;
    case "build":
      return failure.kind === "build_timeout" ? `${failure.engine} image build timed out` : `${failure.engine} image build failed`;
    case "startup":
      if (failure.kind === "startup_timeout") return `${who} never became healthy`;
      if (failure.kind === "cancelled") return `${who} start was cancelled`;
      if (failure.kind === "gpu_unavailable" || failure.kind === "image_missing") {
        return `${who} could not be started`;
      }
      return `${who} died before becoming healthy`;
    case "benchmark":
      return failure.kind === "cancelled" ? `${who} run was cancelled` : `${who} died during the benchmark`;
  }
}

/** One line for a headline, a check title or an annotation. */
export function describeVerdict(card: Scorecard): { passed: boolean; headline: string } {
  const bar = `gate ${card.gate.use === "interval-low" ? "interval low " : ""}≥ ${formatTimes(card.gate.minRoundScore)}`;
  if (card.failure?.kind === "infrastructure") {
    return { passed: false, headline: `⚠️ No verdict: the infrastructure failed, not the patch (${describeFailureEvent(card.failure)})` };
  }
  if (card.failure?.engine === "baseline") {
    return {
      passed: false,
      headline: `⚠️ No verdict: the baseline failed, not the patch (${describeFailureEvent(card.failure)}: ${card.failure.label})`,
    };
  }
  if (card.roundScore === null) {
    const why = card.failure ? `${describeFailureEvent(card.failure)} (${card.failure.label})` : "no prompt was attempted";
    return { passed: false, headline: `❌ No prompt scores: ${why}` };
  }
  const score = formatScoreAgainstBar(card.roundScore, card.gate.minRoundScore);
  return { passed: card.gate.passed, headline: `${card.gate.passed ? "✅" : "❌"} Round score ${score} (${bar})` };
}
