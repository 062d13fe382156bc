import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Prompt } from "../../src/prompts/prompt.js";
import type { SimRequestRecord } from "../../src/sim-engine/chunk-write-log.js";
import { READY_LINE } from "../../src/sim-engine/start-sim-engine.js";
import { findFreePort } from "../../src/engine/find-free-port.js";

const CLI = fileURLToPath(new URL("../../src/cli/index.ts", import.meta.url));

export interface SimEngineProcess {
  url: string;
  /** Stops the engine (SIGTERM) and returns its record of every chunk write. */
  stop(): Promise<SimRequestRecord[]>;
}

/**
 * The sim-engine in its own process, as in a real round: client and server must not share an event
 * loop, or each would delay the other and the measured error would be neither's. `prompts` are the
 * ones the client will send: requests do not name their prompt, so the engine's chunk log finds each
 * request's id from its content, through a prompts file.
 */
export async function startSimEngineProcess(flags: string[], prompts: readonly Prompt[] = []): Promise<SimEngineProcess> {
  const dir = await mkdtemp(join(tmpdir(), "speedgate-bench-sim-"));
  const chunkLog = join(dir, "chunks.jsonl");
  if (prompts.length > 0) {
    const promptsFile = join(dir, "prompts.jsonl");
    await writeFile(promptsFile, `${prompts.map((prompt) => JSON.stringify(prompt)).join("\n")}\n`);
    flags = [...flags, "--prompts", promptsFile];
  }
  const port = await findFreePort();
  const child = spawn(process.execPath, ["--import", "tsx", CLI, "sim-engine", "--port", String(port), "--chunk-log", chunkLog, ...flags], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    child.stderr.on("data", (part: Buffer) => {
      stderr += part.toString("utf8");
      if (stderr.includes(READY_LINE)) resolve();
    });
    void exited.then((code) => reject(new Error(`sim-engine exited with ${code} before it was ready:\n${stderr}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      child.kill("SIGTERM");
      await exited;
      try {
        const text = await readFile(chunkLog, "utf8");
        return text
          .split("\n")
          .filter((line) => line.length > 0)
          .map((line) => JSON.parse(line) as SimRequestRecord);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
