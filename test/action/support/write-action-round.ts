import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type SimRoundOptions, simEngineCommand, writeSimRound } from "../../../harness/sim-engine/write-sim-round.js";
import { MARK_VARIABLE, newMark } from "../../support/find-marked-processes.js";
import { getFreePort } from "../../support/get-free-port.js";
import { makeTempDir } from "../../support/make-temp-dir.js";

/*
 * A round on the reference engine with the process runtime, laid out like a repository: the
 * "engine source" is a sim-engine profile, and the patch makes it faster. Each engine writes a line
 * to a file when it starts (its pid as it sees it), and everything it can read of environments: its
 * own, its parent's (/proc/$PPID/environ) and every other process's in /proc, so a test can check
 * that no token reached it. Every process of the engines carries a mark in its environment, so a
 * test can find whatever is left of them (test/support/find-marked-processes.ts).
 */

/*
 * Answers of 540 ms against 80 ms (and 1,080 ms for the slower patch): a busy machine adds tens of
 * milliseconds to a request, which turned 92 ms against 34 ms into a 0.67x "faster" round. A round's
 * twelve answers are in flight together, so a stall of the test process lengthens all of them: at
 * 300 ms against 80 ms a stall of 220 ms would take the candidate's interval under the 1x bar; at
 * 540 ms it takes 460 ms.
 */
const PROFILE = (ttftMs: number, itlMs: number): string =>
  `{\n  "defaults": { "ttftMs": ${ttftMs}, "itlMs": ${itlMs}, "outputTokens": 12 }\n}\n`;

export const FASTER_PATCH = [
  "diff --git a/profile.json b/profile.json",
  "--- a/profile.json",
  "+++ b/profile.json",
  "@@ -1,3 +1,3 @@",
  " {",
  '-  "defaults": { "ttftMs": 60, "itlMs": 40, "outputTokens": 12 }',
  '+  "defaults": { "ttftMs": 20, "itlMs": 5, "outputTokens": 12 }',
  " }",
  "",
].join("\n");

/** The other way round: the candidate is slower than the baseline. */
export const SLOWER_PATCH = FASTER_PATCH.replace(
  '+  "defaults": { "ttftMs": 20, "itlMs": 5',
  '+  "defaults": { "ttftMs": 120, "itlMs": 80',
);

export interface ActionRound {
  dir: string;
  configPath: string;
  patchPath: string;
  /** One line per engine start. */
  pidFile: string;
  /** Every environment each engine could read (its own, its parent's, all of /proc), appended at its start. */
  envFile: string;
  /** In the environment of every process of both engines. */
  mark: string;
  port: number;
}

export async function writeActionRound(
  options: {
    prompts?: number;
    requestIntervalMs?: number;
    startupDelayMs?: number;
    candidate?: SimRoundOptions["candidate"];
    scenarios?: SimRoundOptions["scenarios"];
  } = {},
): Promise<ActionRound> {
  const dir = await makeTempDir("speedgate-action-");
  const port = await getFreePort();
  const pidFile = join(dir, "engine-pids.txt");
  const envFile = join(dir, "engine-env.txt");
  const mark = newMark();
  const snoop =
    `{ env; cat /proc/$PPID/environ; for f in /proc/[0-9]*/environ; do cat "$f"; echo; done; } 2>/dev/null | tr '\\000' '\\n' >> ` +
    `'${envFile}'`;
  await mkdir(join(dir, "engine"));
  await writeFile(join(dir, "engine", "profile.json"), PROFILE(60, 40));
  await writeFile(join(dir, "faster.patch"), FASTER_PATCH);
  const prompts = Array.from({ length: options.prompts ?? 12 }, (_, index) => ({ id: `p${index}`, prompt: `Count to ${index + 3}.` }));
  const engine = simEngineCommand(
    "--profile",
    "profile.json",
    ...(options.startupDelayMs ? ["--startup-delay-ms", String(options.startupDelayMs)] : []),
  );
  const configPath = await writeSimRound(dir, {
    engine: "sim",
    port,
    prompts: { "prompts.jsonl": prompts },
    health: { intervalMs: 50 },
    baseline: {
      // sh records its pid and what it can read of environments, then exec makes the engine that very process.
      command: ["sh", "-c", `echo $$ >> '${pidFile}'; ${snoop}; exec "$0" "$@"`, ...engine],
      cwd: "engine",
      env: { [MARK_VARIABLE]: mark },
    },
    candidate: { sourceDir: "engine", ...options.candidate },
    bench: { maxTokens: 12, requestIntervalMs: options.requestIntervalMs ?? 5 },
    ...(options.scenarios ? { scenarios: options.scenarios } : {}),
    fileName: "round.yaml",
  });
  return { dir, configPath, patchPath: join(dir, "faster.patch"), pidFile, envFile, mark, port };
}
