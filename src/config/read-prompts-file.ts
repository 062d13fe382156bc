import { readFile } from "node:fs/promises";
import { parsePrompts } from "../prompts/parse-prompts.js";
import type { Prompt } from "../prompts/prompt.js";
import { ConfigError } from "../vocabulary/config-error.js";

/**
 * A JSONL prompt set, each prompt's own maxTokens held to the context it is answered in. `field` is
 * where the config named the file (bench.prompts, scenarios[1].prompts), so an unreadable one is found.
 */
export async function readPromptsFile(path: string, contextLimit: number, field: string): Promise<Prompt[]> {
  let promptText: string;
  try {
    promptText = await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new ConfigError(`${field}: expected a readable JSONL file, could not read ${path} (${code})`);
  }
  const prompts = parsePrompts(promptText, path);
  const tooLong = prompts.filter((prompt) => (prompt.maxTokens ?? 0) > contextLimit);
  if (tooLong.length > 0) {
    throw ConfigError.fromProblems(
      tooLong
        .slice(0, 20)
        .map(
          (prompt) =>
            `prompt ${JSON.stringify(prompt.id)}: maxTokens ${prompt.maxTokens ?? 0} is above bench.contextLimit (${contextLimit}); ` +
            `lower one of them`,
        ),
      path,
    );
  }
  return prompts;
}
