import { escapeInline } from "../../safe-text/escape-engine-text.js";
import { cleanLogLine } from "../../safe-text/sanitize-log-tail.js";
import { formatBar, formatPercent } from "../../scoring/format-speedup.js";
import type { ClaimedBar, Scorecard } from "../scorecard-schema.js";

/** "a target at 1.00×", "a guard (fails only when surely more than 5% slower)". */
export function describeClaimedBar(bar: ClaimedBar): string {
  return bar.role === "guard"
    ? `a guard (fails only when surely more than ${formatPercent(bar.margin ?? 0.05)} slower)`
    : `a target at ${formatBar(bar.minRoundScore)}`;
}

/** How the bars' lines are written: the Markdown card's emphasis and alert, or a terminal's plain text. */
interface BarsStyle {
  name(name: string): string;
  text(text: string): string;
  code(text: string): string;
  warning(title: string, body: string): string;
}

const MARKDOWN: BarsStyle = {
  name: (name) => `**${escapeInline(name)}**`,
  text: escapeInline,
  code: (text) => `\`${text}\``,
  warning: (title, body) => `> [!WARNING]\n> **${title}**: ${body}`,
};

const PLAIN: BarsStyle = {
  name: (name) => name,
  // A path from a card the pull request's code could have written: no control characters reach the terminal.
  text: cleanLogLine,
  code: (text) => text,
  warning: (title, body) => `⚠ ${title}: ${body}`,
};

/**
 * Under the table of scenarios: which settings decided each scenario's bar, so the card and the check can
 * never disagree silently. A round's own card (the CLI's, the action's) has its round config's bars; the
 * app's card says, per scenario, whether the default branch's round config or the app's settings decided,
 * and warns for each scenario whose card claimed another bar (a pull request that edited its round config).
 */
export function renderScenarioBars(card: Scorecard): string {
  return describeScenarioBars(card, MARKDOWN);
}

/** The same for a terminal (render-text.ts): the bars' sources and warnings without Markdown. */
export function renderScenarioBarsText(card: Scorecard): string {
  return describeScenarioBars(card, PLAIN);
}

function describeScenarioBars(card: Scorecard, style: BarsStyle): string {
  const scenarios = card.scenarios ?? [];
  if (scenarios.length === 0) return "";
  const listNames = (names: readonly string[]): string => names.map((name) => style.name(name)).join(", ");
  if (scenarios.every((scenario) => scenario.barFrom === undefined)) {
    return (
      "Bars from the round config. The app holds each scenario to the default branch's copy of it, under its own " +
      `${style.code("gate.scenarios")}.`
    );
  }
  const byRound = new Map<string, string[]>();
  const byApp: string[] = [];
  for (const scenario of scenarios) {
    const from = scenario.barFrom;
    if (from?.settings === "round-config") byRound.set(from.path ?? "", [...(byRound.get(from.path ?? "") ?? []), scenario.name]);
    else byApp.push(scenario.name);
  }
  const parts = [
    ...[...byRound].map(
      ([path, names]) => `from the round config on the default branch${path === "" ? "" : ` (${style.text(path)})`}: ${listNames(names)}`,
    ),
    ...(byApp.length > 0 ? [`from the app's settings: ${listNames(byApp)}`] : []),
  ];
  const lines = [`Bars ${parts.join("; ")}.`];
  const claimed = scenarios.filter((scenario) => scenario.barFrom?.claimed !== undefined);
  if (claimed.length > 0) {
    const said = claimed.map((scenario) => {
      const from = scenario.barFrom;
      const decided = {
        role: scenario.card.gate.role ?? "target",
        minRoundScore: scenario.card.gate.minRoundScore,
        ...(scenario.card.gate.margin === undefined ? {} : { margin: scenario.card.gate.margin }),
      } satisfies ClaimedBar;
      const where = from?.settings === "round-config" ? "the default branch's round config" : "the app's settings";
      return (
        `the round's own card made ${style.name(scenario.name)} ${describeClaimedBar(from?.claimed ?? decided)}; ` +
        `${where} make${where.endsWith("settings") ? "" : "s"} it ${describeClaimedBar(decided)}, which decides`
      );
    });
    lines.push(
      style.warning(
        "Another bar than the round's card",
        `${said.join("; ")}. A pull request that edits its own round config changes what runs, never the bar it is held to.`,
      ),
    );
  }
  return lines.join("\n\n");
}
