import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadRound } from "../../config/load-round-config.js";
import { findFreePort } from "../../engine/find-free-port.js";
import { findPackageRoot } from "../../engine/locate-speedgate.js";
import type { Command } from "../command.js";
import { parseCommandArgs } from "../parse-command-args.js";
import { checkFormat, runAndReport } from "./run-command.js";

/** The demo's files, wherever speedgate was cloned or installed. */
export function demoRoundPath(): string {
  return join(findPackageRoot(), "examples", "demo", "round.yml");
}

export const demoCommand: Command = {
  name: "demo",
  summary: "score the embedded demo patch against the reference engine (needs only Node)",
  usage: "speedgate demo [--out <dir>] [--format text|md]",
  details: `Options:
  --out <dir>        where scorecard.json and scorecard.md are written (default: a new temporary folder)
  --format text|md   how the card is printed on stdout (default text)

Exit codes: 0 a card was written, whatever its verdict; 1 speedgate itself failed; 2 bad usage; 130 cancelled`,
  async run(args, context) {
    const { values } = parseCommandArgs("demo", args, {
      out: { type: "string" },
      format: { type: "string", default: "text" },
    });
    checkFormat("demo", values.format);
    const loaded = await loadRound(demoRoundPath());
    // A fixed port would collide with whatever else the machine runs; any free one will do.
    const round = { ...loaded, config: { ...loaded.config, port: await findFreePort() } };
    const outDir = values.out ?? (await mkdtemp(join(tmpdir(), "speedgate-demo-")));
    context.logger.info(`speedgate demo: ${round.prompts.length} prompts, baseline ./examples/demo/engine, candidate with faster.patch`);
    return await runAndReport(round, { outDir, format: values.format, failOnGate: false }, context);
  },
};
