import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { stringify } from "yaml";
import { type DockerRoundOptions, makeDockerRound } from "../../../harness/docker/make-docker-round.js";

/** The same round as makeDockerRound, as files a `speedgate run` child process reads: round.yaml, prompts, patch. */
export async function writeDockerRound(dir: string, options: DockerRoundOptions): Promise<{ configPath: string; runId: string }> {
  const { round, runId } = makeDockerRound(options);
  await mkdir(dir, { recursive: true });
  const promptsPath = join(dir, "prompts.jsonl");
  await writeFile(promptsPath, round.prompts.map((prompt) => JSON.stringify(prompt)).join("\n"));
  const candidate = { ...round.config.candidate };
  if (round.patch) {
    const patchPath = join(dir, "candidate.patch");
    await writeFile(patchPath, round.patch.bytes);
    candidate.patch = patchPath;
  }
  const configPath = join(dir, "round.yaml");
  await writeFile(configPath, stringify({ ...round.config, candidate, bench: { ...round.config.bench, prompts: promptsPath } }));
  return { configPath, runId };
}
