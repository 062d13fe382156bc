import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import { getFreePort } from "../../support/get-free-port.js";

/*
 * A round on the reference engine with the process runtime, laid out like a repository: the
 * "engine source" is a sim-engine profile, and the patch makes it faster. Each engine writes its
 * pid to a file when it starts, so a test can check that it is gone, and its environment, so a test
 * can check that no token reached it.
 */

const PROFILE = (ttftMs: number, itlMs: number): string => `{\n  "defaults": { "ttftMs": ${ttftMs}, "itlMs": ${itlMs}, "outputTokens": 12 }\n}\n`;

export const FASTER_PATCH = [
  "diff --git a/profile.json b/profile.json",
  "--- a/profile.json",
  "+++ b/profile.json",
  "@@ -1,3 +1,3 @@",
  " {",
  '-  "defaults": { "ttftMs": 20, "itlMs": 6, "outputTokens": 12 }',
  '+  "defaults": { "ttftMs": 10, "itlMs": 2, "outputTokens": 12 }',
  " }",
  "",
].join("\n");

/** The other way round: the candidate is slower than the baseline. */
export const SLOWER_PATCH = FASTER_PATCH.replace('+  "defaults": { "ttftMs": 10, "itlMs": 2', '+  "defaults": { "ttftMs": 40, "itlMs": 12');

export interface SimRound {
  dir: string;
  configPath: string;
  patchPath: string;
  pidFile: string;
  /** What each engine found in its environment, appended at its start. */
  envFile: string;
  port: number;
}

export async function writeSimRound(options: { prompts?: number; requestIntervalMs?: number; startupDelayMs?: number } = {}): Promise<SimRound> {
  const dir = await mkdtemp(join(tmpdir(), "speedgate-action-"));
  const port = await getFreePort();
  const pidFile = join(dir, "engine-pids.txt");
  const envFile = join(dir, "engine-env.txt");
  await mkdir(join(dir, "engine"));
  await writeFile(join(dir, "engine", "profile.json"), PROFILE(20, 6));
  await writeFile(join(dir, "faster.patch"), FASTER_PATCH);
  const count = options.prompts ?? 12;
  const prompts = Array.from({ length: count }, (_, index) => JSON.stringify({ id: `p${index}`, prompt: `Count to ${index + 3}.` }));
  await writeFile(join(dir, "prompts.jsonl"), `${prompts.join("\n")}\n`);
  const engineArgs = ["sim-engine", "--port", "{port}", "--profile", "profile.json"];
  if (options.startupDelayMs) engineArgs.push("--startup-delay-ms", String(options.startupDelayMs));
  const config = {
    engine: "sim",
    runtime: "process",
    port,
    health: { path: "/health", timeoutS: 60, intervalMs: 50 },
    baseline: {
      // sh records the pid and the environment, then exec makes the engine that very process.
      command: ["sh", "-c", `echo $$ >> '${pidFile}' && env >> '${envFile}' && exec "$0" "$@"`, "{node}", "{speedgate}", ...engineArgs],
      cwd: "engine",
    },
    candidate: { sourceDir: "engine" },
    bench: {
      prompts: "prompts.jsonl",
      maxTokens: 12,
      requestIntervalMs: options.requestIntervalMs ?? 5,
      contextLimit: 4096,
      tolerance: 0.9,
    },
    gate: { minRoundScore: 1.0 },
    docker: { stopTimeoutS: 2 },
  };
  const configPath = join(dir, "round.yaml");
  await writeFile(configPath, stringify(config));
  return { dir, configPath, patchPath: join(dir, "faster.patch"), pidFile, envFile, port };
}
