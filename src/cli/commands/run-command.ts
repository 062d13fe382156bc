import { checkRound, loadRound } from "../../config/load-round-config.js";
import { RoundCancelledError } from "../../round/round-cancelled-error.js";
import { runRound } from "../../round/run-round.js";
import { writeScorecard } from "../../round/write-scorecard.js";
import { describeVerdict } from "../../scorecard/render/describe-card.js";
import { renderMarkdown } from "../../scorecard/render/render-markdown.js";
import { renderText } from "../../scorecard/render/render-text.js";
import type { Scorecard } from "../../scorecard/scorecard-schema.js";
import { type Command, type CommandContext, UsageError } from "../command.js";
import { parseCommandArgs } from "../parse-command-args.js";
import { createProgressRenderer } from "../render-round-progress.js";
import { renderRoundPlan } from "../render-round-plan.js";
import { describeScenarioBars } from "../describe-scenario-bars.js";
import { describeCommitsPlan } from "../describe-commits-plan.js";
import { readRoundMode } from "../read-round-mode.js";

export function renderCard(card: Scorecard, format: string): string {
  if (format === "md") return renderMarkdown(card);
  return renderText(card);
}

/**
 * A card was written but no verdict is possible: the engine image cannot be brought to the base commit
 * (image_base_mismatch). Whatever --fail-on-gate says, this is a setup to fix, not a score.
 */
export const EXIT_IMAGE_BASE_MISMATCH = 3;

export function checkFormat(command: string, format: string): void {
  if (format !== "md" && format !== "text")
    throw new UsageError(`speedgate ${command}: --format: expected md or text, got ${JSON.stringify(format)}`);
}

/** Runs a loaded round with progress on stderr, writes the card, prints it; shared by run and demo. */
export async function runAndReport(
  round: Awaited<ReturnType<typeof loadRound>>,
  options: { outDir: string; format: string; failOnGate: boolean; runId?: string },
  context: CommandContext,
): Promise<number> {
  const progress = createProgressRenderer(process.stderr);
  let card: Scorecard;
  try {
    card = await runRound({
      round,
      logger: context.logger,
      signal: context.signal,
      ...(options.runId ? { runId: options.runId } : {}),
      onProgress: progress.onProgress,
    });
  } catch (error) {
    progress.finish();
    if (error instanceof RoundCancelledError) {
      context.logger.error(error.message);
      return 130;
    }
    throw error;
  }
  progress.finish();
  const { jsonPath, markdownPath } = await writeScorecard(options.outDir, card);
  context.stdout.write(renderCard(card, options.format));
  context.logger.info(`wrote ${jsonPath} and ${markdownPath}`);
  if (card.failure?.kind === "image_base_mismatch") return EXIT_IMAGE_BASE_MISMATCH;
  return options.failOnGate && !describeVerdict(card).passed ? 1 : 0;
}

export const runCommand: Command = {
  name: "run",
  summary: "run a round (a pull request's base against its head, or a fixed baseline against a patch) and write the score card",
  usage:
    "speedgate run --config <round.yml> (--out <dir> | --check) [--base <rev> [--head <rev>] [--repo <dir>] | --patch <file>] " +
    "[--fail-on-gate] [--format text|md] [--run-id ID]",
  details: `Options:
  --config <file>    the round config (YAML); paths in it resolve against its folder
  --out <dir>        where scorecard.json and scorecard.md are written (the card is also printed)
  --check            a dry run: validate the config, the prompts and the patch (or the commits), print
                     the plan and what the GPU runner must have, and start nothing (no --out needed)
  --base <rev>       score a pull request against its own base: the baseline is the engine brought to
                     this commit, the candidate the base plus the pull request (docs/scoring-pull-requests.md)
  --head <rev>       the pull request's head (default HEAD)
  --repo <dir>       the engine's git repository holding both commits (default: the one around the
                     current folder)
  --patch <file>     a fixed baseline and a patch (competitions): the candidate's patch, a unified diff;
                     replaces candidate.patch. Not with --base
  --fail-on-gate     exit 1 when the gate does not pass
  --format text|md   how the card is printed on stdout (default text)
  --run-id ID        the id the run's Docker containers, networks and images are labelled with
                     (default: a new one); \`speedgate cleanup --run-id ID\` removes them

Exit codes:
  0    a card was written, whatever its verdict (with --check: the round is valid)
  1    --fail-on-gate and the gate does not pass, or speedgate itself failed
  2    a bad config, prompts file, patch or usage: nothing was started, nothing written
  3    the engine image cannot be brought to the base commit (image_base_mismatch): a card was
       written, and no engine was started
  130  cancelled by SIGINT or SIGTERM: the engines were stopped first`,
  async run(args, context) {
    const { values } = parseCommandArgs("run", args, {
      config: { type: "string" },
      out: { type: "string" },
      patch: { type: "string" },
      "fail-on-gate": { type: "boolean", default: false },
      format: { type: "string", default: "text" },
      "run-id": { type: "string" },
      check: { type: "boolean", default: false },
      base: { type: "string" },
      head: { type: "string" },
      repo: { type: "string" },
    });
    if (!values.config) throw new UsageError(`speedgate run: --config is required\nusage: ${this.usage}`);
    const loadOptions = readRoundMode("run", values, this.usage);
    if (values.check) {
      // A dry run: the config, prompts, patch and commits are validated and the plan printed; nothing starts.
      const check = await checkRound(values.config, loadOptions);
      const bars = await describeScenarioBars(check, check.round.commits?.repoDir);
      context.stdout.write(renderRoundPlan(check, await describeCommitsPlan(check.round), bars));
      return 0;
    }
    if (!values.out) throw new UsageError(`speedgate run: --out is required\nusage: ${this.usage}`);
    checkFormat("run", values.format);
    const round = await loadRound(values.config, loadOptions);
    return await runAndReport(
      round,
      {
        outDir: values.out,
        format: values.format,
        failOnGate: values["fail-on-gate"],
        ...(values["run-id"] ? { runId: values["run-id"] } : {}),
      },
      context,
    );
  },
};
