import { randomInt } from "node:crypto";
import type { ChatMessage, Prompt } from "../prompts/prompt.js";
import { promptContentKey } from "../prompts/prompt-content-key.js";

/** Used when the prompt set holds no words at all (every text empty): a warm-up still needs some text. */
const FALLBACK_WORDS = ["warm", "up", "request", "text"];

function wordsOf(prompts: readonly Prompt[]): string[] {
  const words: string[] = [];
  const add = (text: string): void => {
    for (const word of text.split(/\s+/)) if (word.length > 0) words.push(word);
  };
  for (const prompt of prompts) {
    if (prompt.prompt !== undefined) add(prompt.prompt);
    for (const message of prompt.messages ?? []) {
      if (typeof message.content === "string") add(message.content);
      else for (const part of message.content) if (isTextPart(part)) add(part.text);
    }
  }
  return words.length > 0 ? words : FALLBACK_WORDS;
}

function isTextPart(part: unknown): part is { type: "text"; text: string } {
  return (
    typeof part === "object" &&
    part !== null &&
    (part as { type?: unknown }).type === "text" &&
    typeof (part as { text?: unknown }).text === "string"
  );
}

/** Words drawn at random until the text is about as long as `like`: the same prefill size, none of its content. */
function textLike(like: string, words: readonly string[]): string {
  if (like.length === 0) return "";
  const parts: string[] = [];
  let length = -1;
  while (length < like.length) {
    const word = words[randomInt(words.length)] as string;
    parts.push(word);
    length += word.length + 1;
  }
  return parts.join(" ");
}

function messageLike(message: ChatMessage, words: readonly string[]): ChatMessage {
  if (typeof message.content === "string") return { ...message, content: textLike(message.content, words) };
  return { ...message, content: message.content.map((part) => (isTextPart(part) ? { ...part, text: textLike(part.text, words) } : part)) };
}

/**
 * The warm-up requests: `count` prompts that share no text with any measured prompt. Replaying the
 * measured prompts as warm-ups would hand a patch that caches whole answers (keyed on the request)
 * every scored prompt in advance: the same answer, token for token, from memory. Each warm-up takes
 * the shape of a measured prompt in turn (its roles, the length of each text, its maxTokens), so it
 * exercises the same prefill sizes and output lengths, CUDA graphs and connections; its words are
 * drawn at random from the whole set with the operating system's randomness, so no engine can map a
 * warm-up back to the prompt it stands in for.
 */
export function buildWarmupPrompts(prompts: readonly Prompt[], count: number): Prompt[] {
  if (count <= 0 || prompts.length === 0) return [];
  const words = wordsOf(prompts);
  const measured = new Set(prompts.map((prompt) => promptContentKey(prompt)));
  const warmups: Prompt[] = [];
  for (let index = 0; index < count; index++) {
    const template = prompts[index % prompts.length] as Prompt;
    let warmup: Prompt = { id: "" };
    // A draw that equals a measured prompt (a set of one-word prompts) is drawn again; a prompt whose
    // texts are all empty has nothing to redraw, so its warm-up gets a few words of its own.
    for (let attempt = 0; attempt < 20 && (attempt === 0 || measured.has(promptContentKey(warmup))); attempt++) {
      warmup = { id: `warmup-${index + 1}`, ...(template.maxTokens !== undefined ? { maxTokens: template.maxTokens } : {}) };
      if (template.messages) warmup.messages = template.messages.map((message) => messageLike(message, words));
      else warmup.prompt = textLike(template.prompt ?? "", words);
    }
    if (measured.has(promptContentKey(warmup))) {
      const filler = FALLBACK_WORDS.join(" ");
      const messages = warmup.messages;
      if (messages)
        warmup.messages = messages.map((message, at) => (at === messages.length - 1 ? { ...message, content: filler } : message));
      else warmup.prompt = filler;
    }
    warmups.push(warmup);
  }
  return warmups;
}
