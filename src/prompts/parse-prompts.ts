import { ConfigError } from "../vocabulary/config-error.js";
import { describeValue } from "../vocabulary/describe-value.js";
import { formatConfigIssues } from "../vocabulary/format-config-issues.js";
import { type Prompt, promptSchema } from "./prompt.js";
import { promptContentKey } from "./prompt-content-key.js";

/**
 * Parses a JSONL prompt set: one JSON object a line, blank lines ignored. Every problem names its line,
 * because prompt files are long and edited by hand. Ids are unique, and so is what each prompt sends:
 * a repeated request is one a patch could answer from a cache of the first.
 */
export function parsePrompts(text: string, source: string): Prompt[] {
  const problems: string[] = [];
  const prompts: Prompt[] = [];
  const seen = new Map<string, number>();
  const seenContent = new Map<string, number>();
  // Windows editors save UTF-8 with a byte-order mark; it is not part of the first line's JSON.
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  lines.forEach((line, index) => {
    const lineNumber = index + 1;
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      problems.push(`line ${lineNumber}: expected a JSON object, got ${describeValue(line, 40)} (${(error as Error).message})`);
      return;
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      problems.push(`line ${lineNumber}: expected a JSON object with "id" and "messages" or "prompt", got ${describeValue(value)}`);
      return;
    }
    const parsed = promptSchema.safeParse(value);
    if (!parsed.success) {
      for (const issue of formatConfigIssues(parsed.error.issues, value, promptSchema)) problems.push(`line ${lineNumber}: ${issue}`);
      return;
    }
    const earlier = seen.get(parsed.data.id);
    if (earlier !== undefined) {
      problems.push(`line ${lineNumber}: id ${describeValue(parsed.data.id)} is already used on line ${earlier}; ids must be unique`);
      return;
    }
    const content = promptContentKey(parsed.data) ?? "";
    const sameContent = seenContent.get(content);
    if (sameContent !== undefined) {
      problems.push(
        `line ${lineNumber}: prompt ${describeValue(parsed.data.id)} sends the same ${parsed.data.messages ? "messages" : "prompt"} ` +
          `as line ${sameContent}; an engine that caches answers would answer it from memory, so each prompt must differ`,
      );
      return;
    }
    seen.set(parsed.data.id, lineNumber);
    seenContent.set(content, lineNumber);
    prompts.push(parsed.data);
  });
  if (problems.length > 0) throw ConfigError.fromProblems(problems.slice(0, 20), source);
  if (prompts.length === 0) throw new ConfigError(`${source}: expected at least one prompt, got an empty file`);
  return prompts;
}
