import { delinkPlainText } from "../src/safe-text/delink-plain-text.js";
import { describeFailureEvent, describeVerdict } from "../src/scorecard/render/describe-card.js";
import { decideVerdict } from "../src/scorecard/decide-verdict.js";
import { describeRunnerFix } from "../src/scorecard/find-runner-fault.js";
import type { Scorecard } from "../src/scorecard/scorecard-schema.js";

export interface Annotation {
  level: "error" | "warning";
  title: string;
  message: string;
}

export interface StepOutcome {
  /** Why the step fails (runner.ts gives it to setFailed); null when it passes. */
  failure: string | null;
  /** Said instead of failing, with fail-on-gate: false. */
  warning: string | null;
  /** On the failed engine: an error when it is the patch's, a warning when the runner, the baseline or the infrastructure failed. */
  annotation: Annotation | null;
}

/**
 * What the step does with a card: the same verdict as the card's headline and the app's check
 * (decideVerdict). No verdict still fails the step, since nothing was measured and a required job
 * must not pass, but says so and, when the runner is at fault, what to free. What it says quotes the
 * engine's line in the job log and its annotations, which link URLs: none stays whole.
 */
export function decideStepOutcome(card: Scorecard, options: { failOnGate: boolean; cancelled: boolean }): StepOutcome {
  const verdict = decideVerdict(card);
  const headline = delinkPlainText(describeVerdict(card).headline);
  const fix = verdict.runnerFault ? ` ${delinkPlainText(describeRunnerFix(verdict.runnerFault))}` : "";
  let annotation: Annotation | null = null;
  if (card.failure) {
    const event = delinkPlainText(`${describeFailureEvent(card.failure)} (${card.failure.label})`);
    const summary = delinkPlainText(card.failure.summary);
    annotation =
      verdict.outcome === "none"
        ? { level: "warning", title: `speedgate: no verdict, not the patch: ${event}`, message: `${summary}${fix}` }
        : { level: "error", title: `speedgate: ${event}`, message: summary };
  }
  if (options.cancelled) return { failure: `speedgate was cancelled: ${headline}`, warning: null, annotation };
  if (verdict.outcome === "pass") return { failure: null, warning: null, annotation };
  const said = `${headline}${fix}`;
  // Not a verdict but a setup to fix (the engine image cannot reach the base): the step fails whatever fail-on-gate says.
  if (options.failOnGate || verdict.cause === "image") return { failure: said, warning: null, annotation };
  return { failure: null, warning: `${said} (fail-on-gate is false, so the step passes)`, annotation };
}
