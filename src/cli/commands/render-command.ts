import { readScorecard } from "../../scorecard/read-scorecard.js";
import { renderMarkdown } from "../../scorecard/render/render-markdown.js";
import { renderText } from "../../scorecard/render/render-text.js";
import { type Command, UsageError } from "../command.js";
import { parseCommandArgs } from "../parse-command-args.js";

export const renderCommand: Command = {
  name: "render",
  summary: "print a score card from scorecard.json",
  usage: "speedgate render <scorecard.json> [--format md|json|text]",
  details: `Options:
  --format md|json|text   md: the pull request comment; json: the card as stored; text (default): for a terminal

Exit codes: 0 printed; 2 not a readable score card, or bad usage`,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs("render", args, { format: { type: "string", default: "text" } }, true);
    const path = positionals[0];
    if (!path || positionals.length > 1) throw new UsageError(`usage: ${this.usage}`);
    const card = await readScorecard(path);
    const format = values.format;
    if (format === "md") context.stdout.write(renderMarkdown(card));
    else if (format === "json") context.stdout.write(`${JSON.stringify(card, null, 2)}\n`);
    else if (format === "text") context.stdout.write(renderText(card));
    else throw new UsageError(`speedgate render: --format: expected md, json or text, got ${JSON.stringify(format)}`);
    return 0;
  },
};
