import { readFile } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, sep } from "node:path";
import { parse } from "yaml";
import type { RoundCheck } from "../config/load-round-config.js";
import { findRepositoryRoot } from "../git/resolve-commit.js";
import { decideScenarioBar } from "../github/decide-scenario-bar.js";
import { readRoundConfigBars } from "../github/read-round-config-bars.js";
import { DEFAULT_REPO_CONFIG, type RepoConfig, parseRepoConfig } from "../github/repo-config-schema.js";
import type { ClaimedBar } from "../scorecard/scorecard-schema.js";
import { describeClaimedBar } from "../scorecard/render/render-scenario-bars.js";
import { DEFAULT_GUARD_MARGIN } from "../scoring/scenario-role.js";

/*
 * What `run --check` says about each scenario's bar: the bar this file gives the card, and whether the app's
 * check will hold the scenario to the same one (decideScenarioBar, the rule the app's re-gate follows), read from
 * the app's settings in the same repository as the app reads them from its default branch. Where the two would
 * differ, a note says which scenario, both bars, and what to change: the card and the check never disagree silently.
 */

/** The app's settings files, in the order the app reads them (bot/read-repo-config.ts). */
const APP_SETTINGS_PATHS = [".github/speedgate-app.yml", ".github/speedgate.yml"];

export interface ScenarioBarsDescription {
  /** Per scenario name: "target at 1.00×, bar from the round config". */
  lines: Map<string, string>;
  notes: string[];
}

interface AppSettings {
  /** The file, relative to the repository; null when the repository has none (the app's defaults). */
  file: string | null;
  config: RepoConfig;
}

async function readAppSettings(repoDir: string): Promise<AppSettings | { file: string; problems: string[] }> {
  for (const file of APP_SETTINGS_PATHS) {
    let text: string;
    try {
      text = await readFile(join(repoDir, file), "utf8");
    } catch {
      continue;
    }
    let value: unknown;
    try {
      value = parse(text, { prettyErrors: false, uniqueKeys: true }) as unknown;
    } catch (error) {
      return { file, problems: [`expected valid YAML: ${(error as Error).message.split("\n")[0] ?? ""}`] };
    }
    const parsed = parseRepoConfig(value ?? {});
    return parsed.ok ? { file, config: parsed.config } : { file, problems: parsed.problems };
  }
  return { file: null, config: DEFAULT_REPO_CONFIG };
}

function barOfGate(gate: { role?: ClaimedBar["role"] | undefined; minRoundScore: number; margin?: number | undefined }): ClaimedBar {
  const role = gate.role ?? "target";
  return { role, minRoundScore: gate.minRoundScore, ...(role === "guard" ? { margin: gate.margin ?? DEFAULT_GUARD_MARGIN } : {}) };
}

function sameBar(one: ClaimedBar, other: ClaimedBar): boolean {
  if (one.role !== other.role) return false;
  return one.role === "guard" ? one.margin === other.margin : one.minRoundScore === other.minRoundScore;
}

/** Each scenario's bar and the settings that decide it on the app's check; null for a round without scenarios. */
export async function describeScenarioBars(check: RoundCheck, repoDir?: string): Promise<ScenarioBarsDescription | null> {
  const scenarios = check.round.scenarios;
  if (!scenarios) return null;
  const lines = new Map<string, string>();
  const notes: string[] = [];
  const cardBar = (name: string): ClaimedBar => {
    const scenario = scenarios.find((one) => one.name === name);
    return barOfGate(scenario?.config.gate ?? { minRoundScore: 1 });
  };
  const root = repoDir ?? (await findRepositoryRoot(dirname(check.round.configPath)));
  const inRepo = root === null ? null : relative(root, check.round.configPath);
  if (root === null || inRepo === null || inRepo.startsWith("..") || isAbsolute(inRepo)) {
    for (const { name } of scenarios) lines.set(name, `${describeClaimedBar(cardBar(name))}, bar from the round config`);
    notes.push(
      "this config is in no git repository (or outside the one scored): the app holds each scenario to the bars of the round " +
        "config its settings name (roundConfig) on the default branch, under their gate.scenarios",
    );
    return { lines, notes };
  }
  const configInRepo = inRepo.split(sep).join("/");
  const app = await readAppSettings(root);
  if ("problems" in app) {
    for (const { name } of scenarios) lines.set(name, `${describeClaimedBar(cardBar(name))}, bar from the round config`);
    notes.push(`${app.file} is invalid, so the app's check would fail every pull request: ${app.problems.join("; ")}`);
    return { lines, notes };
  }
  const settingsName = app.file ?? "the app's default settings (no .github/speedgate-app.yml here)";
  const readsThis = app.config.roundConfig === configInRepo;
  if (!readsThis) {
    notes.push(
      app.config.roundConfig === null
        ? `${settingsName} set roundConfig: null: the app takes no bar from this file, only from its own gate and gate.scenarios`
        : `the app reads the scenarios' bars from ${app.config.roundConfig} on the default branch, not from this file ` +
            `(${configInRepo}): set roundConfig: ${configInRepo} in ${app.file ?? ".github/speedgate-app.yml"} if this is the ` +
            "round it scores",
    );
  }
  const text = await readFile(check.round.configPath, "utf8");
  const read = readRoundConfigBars(text, configInRepo);
  const roundBars = readsThis && read.ok ? read.bars : undefined;
  const appGate = app.config.gate;
  for (const { name } of scenarios) {
    const onCard = cardBar(name);
    const decision = decideScenarioBar(name, appGate.scenarios, roundBars);
    const onCheck = barOfGate({ ...appGate, ...decision.entry });
    const from = decision.from === "round-config" ? "bar from the round config" : `bar from the app's settings (${settingsName})`;
    lines.set(name, `${describeClaimedBar(onCard)}, ${from}`);
    if (!sameBar(onCard, onCheck)) {
      notes.push(
        `scenario ${name}: the card makes it ${describeClaimedBar(onCard)}, the app's check would make it ${describeClaimedBar(onCheck)} ` +
          `(${decision.from === "round-config" ? "from the round config" : `from ${settingsName}`}), which decides: ` +
          (decision.from === "app-settings" && Object.hasOwn(app.config.gate.scenarios ?? {}, name)
            ? `make gate.scenarios.${name} in ${app.file ?? ".github/speedgate-app.yml"} say the same, or leave the bar to this file`
            : readsThis
              ? `state its bar in this file's scenarios[].gate`
              : `point roundConfig at this file`),
      );
    }
  }
  return { lines, notes };
}
