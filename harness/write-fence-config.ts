import { writeFile } from "node:fs/promises";
import { join } from "node:path";

/** A minimal round config the untrusted-code fence reads: its runtime, and candidate.trusted when given. */
export async function writeFenceConfig(dir: string, name: string, runtime: string, trusted?: boolean): Promise<string> {
  const path = join(dir, name);
  const candidate = trusted === undefined ? "" : `candidate:\n  trusted: ${trusted}\n`;
  await writeFile(
    path,
    `engine: e\nruntime: ${runtime}\nport: 1\nbaseline:\n  image: i\n  command: [run]\n${candidate}bench:\n  prompts: p.jsonl\n  ` +
      `maxTokens: 1\n  requestIntervalMs: 0\n  contextLimit: 1\n  tolerance: 1\ngate:\n  minRoundScore: 1\n`,
  );
  return path;
}
