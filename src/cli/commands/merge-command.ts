import { describeVerdict } from "../../scorecard/render/describe-card.js";
import { readScorecard } from "../../scorecard/read-scorecard.js";
import { renderMarkdown } from "../../scorecard/render/render-markdown.js";
import { renderText } from "../../scorecard/render/render-text.js";
import { writeScorecard } from "../../round/write-scorecard.js";
import { findCardFiles } from "../../shard/find-card-files.js";
import { mergeScorecards } from "../../shard/merge-scorecards.js";
import { type Command, UsageError } from "../command.js";
import { parseCommandArgs } from "../parse-command-args.js";

export const mergeCommand: Command = {
  name: "merge",
  summary: "combine the cards of a sharded round into one, recomputing the score from every prompt",
  usage: "speedgate merge <scorecard.json | folder | glob>... [--out <dir>] [--format text|md|json] [--fail-on-gate]",
  details: `Options:
  <scorecard.json | folder | glob>...  the shard cards (a folder: every scorecard.json under it)
  --out <dir>              where the merged scorecard.json and scorecard.md are written
  --format text|md|json    how the merged card is printed on stdout (default text)
  --fail-on-gate           exit 1 when the merged card's gate does not pass

Exit codes: 0 merged; 1 --fail-on-gate and the gate does not pass; 2 cards that cannot be merged
(different rounds, a missing or duplicated shard) or bad usage`,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs(
      "merge",
      args,
      { out: { type: "string" }, format: { type: "string", default: "text" }, "fail-on-gate": { type: "boolean", default: false } },
      true,
    );
    if (positionals.length === 0) throw new UsageError(`usage: ${this.usage}`);
    const format = values.format;
    if (format !== "text" && format !== "md" && format !== "json") {
      throw new UsageError(`speedgate merge: --format: expected md, json or text, got ${JSON.stringify(format)}`);
    }
    const files = await findCardFiles(positionals, "speedgate merge");
    const cards = [];
    for (const file of files) cards.push(await readScorecard(file));
    const merged = mergeScorecards(cards, { labels: files });
    if (values.out) {
      const written = await writeScorecard(values.out, merged);
      context.logger.info(`Merged ${files.length} shard cards into ${written.jsonPath}`);
    }
    if (format === "md") context.stdout.write(renderMarkdown(merged));
    else if (format === "json") context.stdout.write(`${JSON.stringify(merged, null, 2)}\n`);
    else context.stdout.write(renderText(merged));
    return values["fail-on-gate"] && !describeVerdict(merged).passed ? 1 : 0;
  },
};
