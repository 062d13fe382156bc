import { describe, expect, it } from "vitest";
import { commands } from "../../src/cli/commands/index.js";
import { runCli } from "./support/sim-round.js";

describe("speedgate's help", () => {
  it("lists run's options and exit codes under `run --help`", async () => {
    const { code, stdout } = await runCli(["run", "--help"]);
    expect(code).toBe(0);
    for (const option of ["--config", "--out", "--check", "--patch", "--fail-on-gate", "--format", "--run-id", "--verbose"]) {
      expect(stdout).toMatch(new RegExp(`^ +${option}\\b.* {2,}\\S`, "m"));
    }
    const exitCodes = stdout.slice(stdout.indexOf("Exit codes:"));
    for (const exit of ["0", "1", "2", "130"]) expect(exitCodes).toMatch(new RegExp(`^ +${exit} +\\S`, "m"));
  });

  it("prints a command's help for `speedgate help <command>`, not the general help", async () => {
    for (const command of commands) {
      const viaHelp = await runCli(["help", command.name]);
      const viaFlag = await runCli([command.name, "--help"]);
      expect(viaHelp.code).toBe(0);
      expect(viaHelp.stdout).toBe(viaFlag.stdout);
      expect(viaHelp.stdout).toContain(`Usage: ${command.usage}`);
    }
    const unknown = await runCli(["help", "runn"]);
    expect(unknown.code).toBe(2);
    expect(unknown.logger.lines.map((line) => line.message).join("\n")).toContain('unknown command "runn"');
  });

  it("says what --verbose does in the general help and in every command's", async () => {
    const general = await runCli(["--help"]);
    expect(general.stdout).toMatch(/^ +--verbose +also print debug messages and every engine log line/m);
    expect(general.stdout).toContain('"speedgate help <command>"');
    expect((await runCli(["calibrate", "--help"])).stdout).toMatch(/^ +--verbose /m);
  });

  it("gives every command that takes options a list of them and its exit codes", () => {
    for (const command of commands) {
      const text = `${command.usage}\n${command.details ?? ""}`;
      expect(text, command.name).toMatch(/Exit codes|--older-than-hours|fault flags|--crash-log/);
    }
  });
});
