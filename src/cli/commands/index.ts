import type { Command } from "../command.js";
import { bisectCommand } from "./bisect-command.js";
import { calibrateCommand } from "./calibrate-command.js";
import { cleanupCommand } from "./cleanup-command.js";
import { demoCommand } from "./demo-command.js";
import { historyCommand } from "./history-command.js";
import { mergeCommand } from "./merge-command.js";
import { renderCommand } from "./render-command.js";
import { runCommand } from "./run-command.js";
import { simEngineCommand } from "./sim-engine-command.js";
import { watchCommand } from "./watch-command.js";

/** Every CLI command, in the order `speedgate --help` lists them. */
export const commands: readonly Command[] = [
  runCommand,
  calibrateCommand,
  watchCommand,
  bisectCommand,
  demoCommand,
  mergeCommand,
  renderCommand,
  historyCommand,
  simEngineCommand,
  cleanupCommand,
];
