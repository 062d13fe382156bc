import { randomUUID } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { basename, dirname, join, relative, resolve } from "node:path";
import { CalibrationRoundError, runCalibration } from "../../round/run-calibration.js";
import type { CalibrationFile } from "../../calibration/calibration-schema.js";
import type { Scorecard } from "../../scorecard/scorecard-schema.js";
import { selfAgreementOf } from "../../config/load-round-calibration.js";
import { loadRound } from "../../config/load-round-config.js";
import { RoundCancelledError } from "../../round/round-cancelled-error.js";
import { writeAtomically } from "../../round/write-scorecard.js";
import { type QueueBound, detectQueueBound } from "../../scorecard/detect-queue-bound.js";
import { formatPercent, formatTimes } from "../../scoring/format-speedup.js";
import { MIN_CALIBRATION_ROUNDS } from "../../scoring/noise-floor.js";
import { calibratedSpread, detectableWithin } from "../../scoring/decide-sequential.js";
import { calibrationRunsOf, describeRuns } from "../../config/run-plan.js";
import { type Command, UsageError } from "../command.js";
import { parseCommandArgs } from "../parse-command-args.js";
import { readRoundMode } from "../read-round-mode.js";
import { createProgressRenderer } from "../render-round-progress.js";

export const DEFAULT_CALIBRATION_ROUNDS = 20;
export const DEFAULT_CALIBRATION_FILE = "speedgate-calibration.json";

/** The largest share of compared prompts one A/A round of a study left unscored. */
function worstUnscoredShare(rounds: CalibrationFile["rounds"]): number {
  return Math.max(...rounds.map((round) => (round.promptsCompared > 0 ? round.unscored / round.promptsCompared : 0)));
}

/** The warning for a study whose unchanged engine left more prompts unscored than the gate allows; `where` names a scenario's. */
function describeUnrepeatable(share: number, maxUnscored: number, where: string): string {
  return (
    `  warning: the unchanged engine left up to ${formatPercent(share)} of the prompts${where} unscored in one round, more than ` +
    `gate.maxUnscored ${formatPercent(maxUnscored)}: its answers are not repeatable, so patches will fail the gate; check ` +
    `bench.tolerance and the engine's determinism`
  );
}

/**
 * A study whose A/A rounds all fell on one side of 1×: the two seats are not alike (one engine met a busier machine, a
 * warmer cache, a fixed order), and the floor measures that bias, not noise. Five rounds of one side happen by chance in
 * 6% of studies of an unbiased runner; the warning says what to look at, it refuses nothing.
 */
function describeBias(scores: readonly number[], where: string): string | null {
  if (scores.length < 5) return null;
  const below = scores.every((score) => score < 1);
  if (!below && !scores.every((score) => score > 1)) return null;
  return (
    `  warning: all ${scores.length} A/A rounds${where} scored ${below ? "below" : "above"} 1.00× ` +
    `(${formatTimes(Math.min(...scores))}–${formatTimes(Math.max(...scores))}): the baseline against itself should land on both ` +
    `sides; one seat was favoured (a runner busy with other work, an engine sharing its cores or cache), so this floor measures ` +
    `that, not the runner's noise: calibrate again on a dedicated, idle runner`
  );
}

/** A noise floor past which a round passes only speedups most pull requests never make. */
const TOO_NOISY_FLOOR = 0.25;

/** A floor too wide to gate anything, with the smallest speedup the runner could show (passing 95% of the time). */
function describeTooNoisy(noise: CalibrationFile["noise"], where: string): string | null {
  if (noise.floor < TOO_NOISY_FLOOR) return null;
  const smallest = (1 + noise.floor) * (1 + noise.detectableSpeedup);
  return (
    `  warning: the noise floor${where} is +${formatPercent(noise.floor)}: a patch must be about ${formatTimes(smallest)} as fast to ` +
    `pass 95% of the time on this runner, and an unchanged or slightly faster engine gets inconclusive cards; score on a ` +
    `dedicated, idle runner (docs/score-your-engine.md, step 4)`
  );
}

/**
 * What the study found, for a person deciding whether to trust it. With scenarios the lines above are
 * the first scenario's (the file's top level), and each scenario's floor follows, since a round holds
 * each scenario to its own.
 */
export function describeCalibration(
  file: CalibrationFile,
  maxUnscored: number,
  /** Each workload the study found queue-bound, in the config's order: in how many rounds, and the first round's figures. */
  queueBound: ReadonlyArray<{ rounds: number; first: QueueBound & { scenario: string | null } }> = [],
  /** A scenario's own gate.maxUnscored, where it sets one. */
  scenarioMaxUnscored: ReadonlyMap<string, number> = new Map(),
): string {
  const scores = file.rounds.map((round) => round.roundScore);
  const headline = file.scenarios?.[0];
  const lines = [
    `A/A study of ${file.engine} on ${file.runner ?? "this machine"}${file.gpu ? ` (${file.gpu})` : ""}, ${file.rounds.length} ` +
      `rounds of ${file.settings.prompts} prompts, bench.runs ` +
      `${file.settings.runs}${headline ? `, scenario ${headline.name} (the headline; every scenario's floor is below)` : ""}:`,
    `  round scores of the baseline against itself: ${scores.map((score) => formatTimes(score)).join(", ")}`,
    `  spread: ${formatTimes(Math.min(...scores))}–${formatTimes(Math.max(...scores))}, ${formatPercent(file.noise.sdLog)} standard ` +
      `deviation (log scale)`,
    `  noise floor: +${formatPercent(file.noise.floor)}: an unchanged engine stays below it in 97.5% of rounds, so a round must ` +
      `score at least gate.minRoundScore × ${(1 + file.noise.floor).toFixed(4)} to pass`,
    `  a speedup of ${formatPercent(file.noise.detectableSpeedup)} over the bar passes 95% of the time on this runner`,
  ];
  lines.push(...describeBudgetReach(file));
  const self = selfAgreementOf(file.rounds);
  if (self) {
    const median =
      self.lowestMedianAgreement === null ? "not compared by text" : `lowest median agreement ${formatPercent(self.lowestMedianAgreement)}`;
    lines.push(
      `  the baseline against itself: ${median}; at most ${formatPercent(self.mostDisagreed)} of the prompts cut short or parted in ` +
        `one round (rounds gating on this file allow the same)`,
    );
    if (self.unexplained && self.unexplained.compared > 0) {
      lines.push(
        `  answers none of the other seat's explained: ${self.unexplained.count} of ${self.unexplained.compared} ` +
          `(${formatPercent(self.unexplained.count / self.unexplained.compared)}); rounds gating on this file allow the engine's own ` +
          `rate of odd answers up to its upper bound`,
      );
    }
  }
  if (file.scenarios) {
    lines.push(`  each scenario, gated on its own floor (${file.scenarios.length}):`);
    for (const scenario of file.scenarios) {
      lines.push(
        `    ${scenario.name}: noise floor +${formatPercent(scenario.noise.floor)}, a speedup of ` +
          `${formatPercent(scenario.noise.detectableSpeedup)} over the bar passes 95% of the time (${scenario.settings.prompts} ` +
          `prompts, bench.runs ${scenario.settings.runs})`,
      );
    }
  }
  const studies = file.scenarios?.map((scenario) => ({
    where: ` of scenario ${scenario.name}`,
    share: worstUnscoredShare(scenario.rounds),
    limit: scenarioMaxUnscored.get(scenario.name) ?? maxUnscored,
  })) ?? [{ where: "", share: worstUnscoredShare(file.rounds), limit: maxUnscored }];
  for (const { where, share, limit } of studies) if (share > limit) lines.push(describeUnrepeatable(share, limit, where));
  const noises = file.scenarios?.map((scenario) => ({ where: ` of scenario ${scenario.name}`, study: scenario })) ?? [
    { where: "", study: file },
  ];
  for (const { where, study } of noises) {
    const warnings = [
      describeBias(
        study.rounds.map((round) => round.roundScore),
        where,
      ),
      describeTooNoisy(study.noise, where),
    ];
    for (const warning of warnings) if (warning) lines.push(warning);
  }
  // Each queue-bound scenario by name, with its own figures and its own fix (a closed loop's is its concurrency, never an interval).
  for (const bound of queueBound) {
    const which = bound.first.scenario === null ? "" : ` in scenario ${bound.first.scenario}`;
    const floor = bound.first.scenario === null ? "this floor" : `scenario ${bound.first.scenario}'s floor`;
    lines.push(
      `  warning: ${bound.rounds} of ${file.rounds.length} A/A rounds were queue-bound${which} ` +
        `(in the first, ${bound.first.why}): ` +
        `${floor} measures how the baseline's queue drains, not its speed; ${bound.first.fix}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/** The budgets a team chooses between: at least two runs, at most this many. */
export const QUOTED_BUDGETS = [4, 8, 16, 24] as const;

/**
 * What a team needs to choose a run budget (bench.runs { min, max }): the runner's run-to-run spread,
 * and for budgets of 4, 8, 16 and 24 (the default) runs the smallest speedup the sequential rule passes with 95% power,
 * with this calibration and without one.
 */
export function describeBudgetReach(file: Pick<CalibrationFile, "rounds" | "settings">): string[] {
  const spread = calibratedSpread(
    file.rounds.map((round) => round.roundScore),
    file.settings.runs,
  );
  const reach = (calibrated: { degrees: number } | null): string =>
    QUOTED_BUDGETS.map(
      (max) => `${formatTimes(detectableWithin({ min: 2, max }, file.settings.order, spread.sdLogRun, calibrated))} in ${max} runs`,
    ).join(", ");
  const per = file.settings.runs === 1 ? "the A/A round scores' own spread" : `the A/A round scores' spread × √${file.settings.runs} runs`;
  return [
    `  run-to-run spread: one run's score spreads ${formatPercent(spread.sdLogRun)} (standard deviation, log scale: ${per})`,
    `  smallest speedup over the bar a run budget (bench.runs { min: 2, max }) passes 95% of the time here: gating on this file ` +
      `${reach({ degrees: spread.degrees })}; without a calibration ${reach(null)}`,
  ];
}

/** An A/A round's score as the log line gives it: each scenario's, named, in a round with scenarios. */
function describeAaScore(card: Scorecard): string {
  if (!card.scenarios) return formatTimes(card.roundScore);
  return card.scenarios.map(({ name, card: one }) => `${name} ${formatTimes(one.roundScore)}`).join(", ");
}

export const calibrateCommand: Command = {
  name: "calibrate",
  summary: "measure this runner's noise: the baseline scored against itself N rounds (an A/A study)",
  usage: "speedgate calibrate --config <round.yml> [--base <rev> [--head <rev>] [--repo <dir>]] [--runs N] [--out <file>] [--run-id ID]",
  details: `Options:
  --config <file>  the round config the rounds will run (its settings, prompts and bench.runs)
  --base <rev>     for a config run with --base (a pull request's own commits): the baseline is the
                   engine at this commit, in both seats, its folders resolved as run --base resolves
                   them; the calibration fits run --base with any base
  --head <rev>     accepted as run takes it (default HEAD); the A/A study never runs the head
  --repo <dir>     the engine's git repository (default: the one around the current folder)
  --runs N         A/A rounds to run (default ${DEFAULT_CALIBRATION_ROUNDS}, at least ${MIN_CALIBRATION_ROUNDS})
  --out <file>     where to write the calibration (default ${DEFAULT_CALIBRATION_FILE} next to the config)
  --run-id ID      the id the run's Docker resources are labelled with (default: a new one)

Exit codes:
  0    the calibration was written
  1    an A/A round failed (nothing is written), or speedgate itself failed
  2    a bad config or usage
  130  cancelled by SIGINT or SIGTERM`,
  async run(args, context) {
    const { values } = parseCommandArgs("calibrate", args, {
      config: { type: "string" },
      runs: { type: "string", default: String(DEFAULT_CALIBRATION_ROUNDS) },
      out: { type: "string" },
      "run-id": { type: "string" },
      base: { type: "string" },
      head: { type: "string" },
      repo: { type: "string" },
    });
    if (!values.config) throw new UsageError(`speedgate calibrate: --config is required\nusage: ${this.usage}`);
    const mode = readRoundMode("calibrate", values, this.usage);
    const rounds = Number(values.runs);
    if (!Number.isInteger(rounds) || rounds < MIN_CALIBRATION_ROUNDS || rounds > 1_000) {
      throw new UsageError(
        `speedgate calibrate: --runs: expected a whole number of A/A rounds from ${MIN_CALIBRATION_ROUNDS} to 1000, got ` +
          `${JSON.stringify(values.runs)}`,
      );
    }
    // The file gate.calibration names may not exist yet, or no longer fit: this is what measures it again.
    const round = await loadRound(values.config, { ...mode, skipCalibration: true });
    const out = resolve(values.out ?? join(dirname(round.configPath), DEFAULT_CALIBRATION_FILE));
    const progress = createProgressRenderer(process.stderr);
    const workloads = round.scenarios
      ? `${round.scenarios.length} scenarios (${round.scenarios.map((scenario) => scenario.name).join(", ")})`
      : `${round.prompts.length} prompts`;
    context.logger.info(
      `speedgate calibrate: ${rounds} A/A rounds of ${workloads} (bench.runs ${describeRuns(round.config.bench.runs)}, each A/A round ` +
        `${calibrationRunsOf(round.config.bench.runs)} runs), the baseline against itself`,
    );
    let file: CalibrationFile;
    // Per workload (null: a round without scenarios), in the order first seen: a scenario is named by its own figures, never another's.
    const queueBound = new Map<string | null, { rounds: number; first: QueueBound & { scenario: string | null } }>();
    try {
      file = await runCalibration({
        round,
        rounds,
        logger: context.logger,
        signal: context.signal,
        runId: values["run-id"] ?? `calibrate-${randomUUID().slice(0, 8)}`,
        onProgress: (_index, event) => progress.onProgress(event),
        onRoundDone: (index, card) => {
          progress.finish();
          // Each scenario's own figures: the top level is the headline scenario's, which says nothing of another's queue.
          const queued = (card.scenarios ?? [{ name: null, card }]).flatMap(({ name, card: one }) => {
            const bound = detectQueueBound(one);
            return bound ? [{ ...bound, scenario: name }] : [];
          });
          for (const bound of queued) {
            const seen = queueBound.get(bound.scenario);
            queueBound.set(bound.scenario, seen ? { ...seen, rounds: seen.rounds + 1 } : { rounds: 1, first: bound });
          }
          const named = queued.map((bound) => bound.scenario).filter((name) => name !== null);
          const flag = queued.length === 0 ? "" : named.length > 0 ? ` (queue-bound: ${named.join(", ")})` : " (queue-bound)";
          context.logger.info(`A/A round ${index + 1} of ${rounds}: ${describeAaScore(card)}${flag}`);
        },
      });
    } catch (error) {
      progress.finish();
      if (error instanceof RoundCancelledError) {
        context.logger.error(error.message);
        return 130;
      }
      if (error instanceof CalibrationRoundError) {
        context.logger.error(`${error.message}; no calibration was written`);
        return 1;
      }
      throw error;
    }
    progress.finish();
    await mkdir(dirname(out), { recursive: true });
    await writeAtomically(out, `${JSON.stringify(file, null, 2)}\n`);
    const scenarioMaxUnscored = new Map(round.scenarios?.map((scenario) => [scenario.name, scenario.config.gate.maxUnscored]));
    const order = round.scenarios?.map((scenario) => scenario.name) ?? [null];
    const bound = order.flatMap((name) => queueBound.get(name) ?? []);
    context.stdout.write(describeCalibration(file, round.config.gate.maxUnscored, bound, scenarioMaxUnscored));
    const named = relative(dirname(round.configPath), out) || basename(out);
    context.logger.info(`wrote ${out}; gate on it with gate.calibration: ${named} in ${round.configPath}`);
    return 0;
  },
};
