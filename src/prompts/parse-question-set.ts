import { ConfigError } from "../vocabulary/config-error.js";
import { describeValue } from "../vocabulary/describe-value.js";
import { formatConfigIssues } from "../vocabulary/format-config-issues.js";
import { type Question, questionLineSchema } from "./question.js";
import { promptContentKey } from "./prompt-content-key.js";

/**
 * Parses a JSONL question set (quality.questions): one JSON object a line, blank lines ignored, every
 * problem naming its line. Ids are unique (given, or q<line number>, so that a card's q17 is
 * the file's line 17), and so is what each question sends:
 * two lines asking the same thing would count one question twice in the paired test.
 */
export function parseQuestionSet(text: string, source: string): Question[] {
  const problems: string[] = [];
  const questions: Question[] = [];
  const seen = new Map<string, number>();
  const seenContent = new Map<string, number>();
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
      problems.push(`line ${lineNumber}: expected a JSON object with "messages" or "prompt" and "answer", got ${describeValue(value)}`);
      return;
    }
    const parsed = questionLineSchema.safeParse(value);
    if (!parsed.success) {
      for (const issue of formatConfigIssues(parsed.error.issues, value, questionLineSchema)) problems.push(`line ${lineNumber}: ${issue}`);
      return;
    }
    const { id: given, messages, prompt, answer } = parsed.data;
    const id = given ?? `q${lineNumber}`;
    const earlier = seen.get(id);
    if (earlier !== undefined) {
      problems.push(`line ${lineNumber}: id ${describeValue(id)} is already used on line ${earlier}; ids must be unique`);
      return;
    }
    const content = promptContentKey(messages ? { messages } : { prompt: prompt ?? "" }) ?? "";
    const sameContent = seenContent.get(content);
    if (sameContent !== undefined) {
      problems.push(
        `line ${lineNumber}: question ${describeValue(id)} asks the same ${messages ? "messages" : "prompt"} as line ${sameContent}; ` +
          "each question must differ, or the paired test would count one question twice",
      );
      return;
    }
    seen.set(id, lineNumber);
    seenContent.set(content, lineNumber);
    questions.push({ id, ...(messages ? { messages } : { prompt: prompt ?? "" }), answer });
  });
  if (problems.length > 0) throw ConfigError.fromProblems(problems.slice(0, 20), source);
  if (questions.length === 0) throw new ConfigError(`${source}: expected at least one question, got an empty file`);
  return questions;
}
