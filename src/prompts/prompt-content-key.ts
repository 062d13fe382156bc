/**
 * What identifies a prompt in a request: its messages (chat) or its text (completions), exactly
 * as the benchmark client sends them. A real engine sees nothing else: two prompts with the same key
 * are the same request to it, and an engine that caches answers would answer the second from memory.
 */
export function promptContentKey(body: { messages?: unknown; prompt?: unknown }): string | null {
  if (body.messages !== undefined) return `messages:${JSON.stringify(body.messages)}`;
  if (typeof body.prompt === "string") return `prompt:${body.prompt}`;
  return null;
}
