import { escapeInline } from "../../safe-text/escape-engine-text.js";
import type { Scorecard } from "../scorecard-schema.js";

/**
 * One short line under the headline: what was measured, where, on which commit, by which speedgate.
 * The place for a fact a reader wants before the numbers without a row of its own (the base and
 * head commits, whether a build ran); the details sections hold the rest.
 */
export function renderFactsLine(card: Scorecard): string {
  const where = [card.provenance.runner, card.provenance.gpu].filter((part): part is string => !!part).join(", ");
  // Base/head mode says what was compared (the base against the head, and whether the baseline came
  // from the cache); otherwise the commit the workflow names, when it names one.
  const commits = card.commits
    ? `base ${card.commits.base.slice(0, 7)} → head ` +
      `${card.commits.head.slice(0, 7)}${card.commits.baseline?.cache === "hit" ? " (baseline cached)" : ""}`
    : null;
  const commit = commits ?? (card.source?.headSha ? `commit ${card.source.headSha.slice(0, 7)}` : null);
  const shard = card.shard ? `shard ${card.shard.index} of ${card.shard.count}` : null;
  // With scenarios the top level is the first scenario's: the round's prompts are every scenario's together.
  const scenarios = card.scenarios ?? [];
  const prompts = scenarios.length > 0 ? scenarios.reduce((sum, scenario) => sum + scenario.card.promptsTotal, 0) : card.promptsTotal;
  const parts = [
    card.engine,
    scenarios.length > 0 ? `${scenarios.length} scenario${scenarios.length === 1 ? "" : "s"}` : null,
    `${prompts} prompt${prompts === 1 ? "" : "s"}`,
    shard,
    where === "" ? null : `on ${where}`,
    commit,
    `speedgate ${card.speedgateVersion}`,
  ].filter((part): part is string => part !== null);
  return `<sub>${parts.map(escapeInline).join(" · ")}</sub>`;
}
