import * as core from "@actions/core";
import { ConfigError } from "../src/vocabulary/config-error.js";
import { RoundCancelledError } from "../src/round/round-cancelled-error.js";
import { runRound } from "../src/round/run-round.js";
import { writeScorecard } from "../src/round/write-scorecard.js";
import { readActionContext } from "./action-context.js";
import { cardOutputs } from "./card-outputs.js";
import { createActionOctokit } from "./create-action-octokit.js";
import { createActionsLogger } from "./create-actions-logger.js";
import { decideStepOutcome } from "./decide-step-outcome.js";
import { readSettings } from "./input-helper.js";
import { type ActionDependencies, runAction } from "./main.js";
import { decideWatchOutcome, runWatchMode, watchOutputs } from "./run-watch-mode.js";
import { scrubStepSecrets } from "./scrub-step-secrets.js";
import { STATE } from "./state-keys.js";

/**
 * The runner cancels with SIGINT, then SIGTERM 7.5 s later, then SIGKILL. The first signal aborts
 * the round so its engines stop inside that window; later ones must not kill the cleanup.
 */
function abortOnSignals(): AbortSignal {
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals): void => {
    if (controller.signal.aborted) {
      core.info(`Received ${signal}; still stopping the engines`);
      return;
    }
    core.info(`Received ${signal}; stopping the engines`);
    controller.abort(new Error(`the job was cancelled (${signal})`));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return controller.signal;
}

/** Parses the inputs, runs the pipeline, sets outputs and the job summary. The one place that fails the step. */
export async function run(): Promise<void> {
  const signal = abortOnSignals();
  const logger = createActionsLogger();
  let failure: string | null;
  try {
    const settings = readSettings((name) => core.getInput(name), process.env);
    const scrubbed = scrubStepSecrets(process.env);
    if (scrubbed.length > 0) logger.debug(`Removed ${scrubbed.join(", ")} from the environment of what this step starts`);
    const deps: ActionDependencies = {
      logger,
      signal,
      runRound,
      writeScorecard,
      createClient: (token) => createActionOctokit(token),
      onRunStarted: ({ runId, runtime }) => {
        core.saveState(STATE.runId, runId);
        core.saveState(STATE.runtime, runtime);
        logger.info(`Run id ${runId} (${runtime} runtime): everything this step starts carries it`);
      },
    };
    if (settings.mode === "watch") {
      const watched = await runWatchMode(settings, readActionContext(process.env), deps);
      for (const [name, value] of Object.entries(watchOutputs(watched))) core.setOutput(name, value);
      if (process.env.GITHUB_STEP_SUMMARY) await core.summary.addRaw(watched.summary).write();
      if (watched.run.judgement?.alarm)
        core.warning(`main drifted beyond watch.maxDrift: see ${watched.watchPath}`, { title: "speedgate watch" });
      failure = decideWatchOutcome(watched, { failOnDrift: settings.failOnDrift, cancelled: signal.aborted });
      if (failure !== null) core.setFailed(failure);
      return;
    }
    const result = await runAction(settings, readActionContext(process.env), deps);
    for (const [name, value] of Object.entries(cardOutputs(result))) core.setOutput(name, value);
    // Outside a runner (act, a local dry run) there may be no summary file; the card is on disk anyway.
    if (process.env.GITHUB_STEP_SUMMARY) await core.summary.addRaw(result.markdown).write();
    const outcome = decideStepOutcome(result.card, { failOnGate: settings.failOnGate, cancelled: signal.aborted });
    if (outcome.annotation) {
      const { level, title, message } = outcome.annotation;
      (level === "error" ? core.error : core.warning)(message, { title });
    }
    if (outcome.warning) core.warning(outcome.warning);
    failure = outcome.failure;
  } catch (error) {
    failure =
      error instanceof ConfigError || error instanceof RoundCancelledError
        ? error.message
        : `speedgate failed: ${(error as Error).stack ?? String(error)}`;
  }
  if (failure !== null) core.setFailed(failure);
}
