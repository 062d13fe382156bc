import { join } from "node:path";
import { resolveCommit } from "../../git/resolve-commit.js";
import { NotFirstParentError } from "../../git/list-first-parent-commits.js";
import { RangeRoundFailedError, runLocalBisection } from "../../round/run-bisection.js";
import { localCommitRounds } from "../../round/run-commit-round.js";
import { RoundCancelledError } from "../../round/round-cancelled-error.js";
import { readWatchSettings } from "../../round/run-watch.js";
import { writeBisectionReport } from "../../round/write-watch-report.js";
import { writeScorecard } from "../../round/write-scorecard.js";
import { ConfigError } from "../../vocabulary/config-error.js";
import { type Command, UsageError } from "../command.js";
import { parseCommandArgs } from "../parse-command-args.js";
import { createProgressRenderer } from "../render-round-progress.js";
import { repositoryRoot } from "./watch-command.js";

export const bisectCommand: Command = {
  name: "bisect",
  summary: "find the merge that made main slower between a good and a bad commit, one base/head round at a time",
  usage: "speedgate bisect --config <round.yml> --good <rev> --bad <rev> --out <dir> [--repo <dir>] [--scenario <name>]",
  details: `Options:
  --config <file>    the round config (its watch: section sets the repeats and the share a merge must explain)
  --good <rev>       a commit of main at the good speed
  --bad <rev>        a later commit of main, slower
  --out <dir>        where bisection.md, bisection.json, range/ (the bad commit's card against the good one)
                     and steps/<step>/ (each step's card) are written
  --repo <dir>       the engine's clone (default: the one around the current folder)
  --scenario <name>  the scenario to follow (default: the one the range round shows slowest)

It first scores the bad commit against the good one (the range round), then each step: a commit of main's
first-parent history between them against the good commit, halving the range; a step whose interval
straddles its bar is run again (watch.maxRepeats), then reported as a range, never guessed. The first bad
commit is then scored against its own parent: a single merge when it explains watch.explainShare of the
drift, else a gradual drift (docs/watching-main.md).

Exit codes:
  0    the bisection ended (found, gradual, a range, or no drift to bisect: bisection.md says which)
  1    speedgate itself failed, or the range round scored nothing
  2    a bad config, commit or usage, or a good commit not on the bad one's first-parent history
  130  cancelled by SIGINT or SIGTERM`,
  async run(args, context) {
    const { values } = parseCommandArgs("bisect", args, {
      config: { type: "string" },
      good: { type: "string" },
      bad: { type: "string" },
      out: { type: "string" },
      repo: { type: "string" },
      scenario: { type: "string" },
    });
    for (const required of ["config", "good", "bad", "out"] as const) {
      if (!values[required]) throw new UsageError(`speedgate bisect: --${required} is required\nusage: ${this.usage}`);
    }
    const configPath = values.config ?? "";
    const outDir = values.out ?? "";
    const watch = await readWatchSettings(configPath);
    const repoDir = await repositoryRoot(values.repo);
    const resolved: Record<"good" | "bad", string> = { good: "", bad: "" };
    for (const which of ["good", "bad"] as const) {
      const sha = await resolveCommit(repoDir, values[which] ?? "");
      if (!sha)
        throw new ConfigError(`--${which}: expected a commit of the repository at ${repoDir}, got ${JSON.stringify(values[which])}`);
      resolved[which] = sha;
    }
    const progress = createProgressRenderer(process.stderr);
    let bisection;
    try {
      bisection = await runLocalBisection({
        repoDir,
        good: resolved.good,
        bad: resolved.bad,
        scenario: values.scenario ?? null,
        maxRepeats: watch.maxRepeats,
        explainShare: watch.explainShare,
        runRound: localCommitRounds({
          configPath,
          repoDir,
          logger: context.logger,
          signal: context.signal,
          onProgress: (_label, event) => progress.onProgress(event),
        }),
        logger: context.logger,
        signal: context.signal,
        onRound: async (key, card) => {
          if (key === "range") await writeScorecard(join(outDir, "range"), card);
        },
      });
    } catch (error) {
      progress.finish();
      if (error instanceof RoundCancelledError) {
        context.logger.error(error.message);
        return 130;
      }
      if (error instanceof NotFirstParentError) throw new ConfigError(`--good: ${error.message}`);
      if (error instanceof RangeRoundFailedError) {
        context.logger.error(`speedgate bisect: ${error.message}; its card is in ${join(outDir, "range")}`);
        return 1;
      }
      throw error;
    }
    progress.finish();
    const written = await writeBisectionReport(outDir, bisection, "speedgate bisect", null);
    context.stdout.write(written.markdown);
    context.logger.info(`wrote ${written.markdownPath} and ${written.jsonPath}`);
    return 0;
  },
};
