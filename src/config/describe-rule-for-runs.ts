import type { BenchSettings } from "./bench-settings-schema.js";
import type { RoundGateSettings } from "./gate-settings-schema.js";

/**
 * A run budget is decided by the sequential rule and a number of runs by the others: the other pairing
 * would leave the budget's looks without a rule, or a rule without looks. Null when they fit.
 */
export function describeRuleForRuns(runs: BenchSettings["runs"], use: RoundGateSettings["use"]): string | null {
  if (use === undefined) return null;
  if (typeof runs === "object" && use !== "sequential") {
    return (
      `expected sequential, or no gate.use: bench.runs is a budget ({ min: ${runs.min}, max: ${runs.max} }), which the sequential ` +
      "rule decides (a number of runs is gated by interval-low, noise-floor or round-score)"
    );
  }
  if (typeof runs === "number" && use === "sequential") {
    return (
      "expected interval-low, noise-floor or round-score, or bench.runs as a budget { min, max }: the sequential rule decides a " +
      `budget, and bench.runs is ${runs}`
    );
  }
  return null;
}
