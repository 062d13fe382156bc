import type { LoadedRound } from "../config/load-round-config.js";
import { describeTwoRuns } from "../scoring/describe-two-runs.js";

/**
 * The round's two-runs warnings (describeTwoRuns), once per setting that says 2: bench.runs, or a
 * scenario's own runs. The round plan and the round's log both give them, before any GPU time.
 */
export function describeRoundTwoRuns(round: Pick<LoadedRound, "config" | "scenarios">): string[] {
  const { config, scenarios } = round;
  if (!scenarios) return [describeTwoRuns(config.bench.runs, config.gate.use)].filter((note) => note !== null);
  const notes = scenarios.map((scenario, index) => {
    const own = config.scenarios?.[index]?.runs !== undefined;
    return describeTwoRuns(
      scenario.config.bench.runs,
      scenario.config.gate.use,
      own ? `scenarios[${index}].runs (${scenario.name})` : "bench.runs",
    );
  });
  return [...new Set(notes.filter((note) => note !== null))];
}
