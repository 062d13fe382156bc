import type { Prompt } from "../prompts/prompt.js";

export interface RequestSettings {
  model: string;
  maxTokens: number;
  thinking: boolean;
  requestTimeoutS: number;
}

/** Header that carries the prompt id: real engines ignore unknown headers, the sim-engine keys its profile on it. */
export const PROMPT_ID_HEADER = "x-speedgate-prompt-id";

/**
 * The OpenAI-compatible request both engines get. `max_tokens` and `max_completion_tokens` are both
 * sent because SGLang and vLLM versions differ in which one they honour; temperature 0 keeps the
 * outputs, and so the lengths, as comparable as the engines allow.
 */
export function buildRequestBody(prompt: Prompt, settings: RequestSettings): { path: string; body: string } {
  const maxTokens = prompt.maxTokens ?? settings.maxTokens;
  const common = {
    model: settings.model,
    max_tokens: maxTokens,
    max_completion_tokens: maxTokens,
    temperature: 0,
    stream: true,
    stream_options: { include_usage: true },
    chat_template_kwargs: { enable_thinking: settings.thinking },
  };
  if (prompt.messages) {
    return { path: "/v1/chat/completions", body: JSON.stringify({ ...common, messages: prompt.messages }) };
  }
  return { path: "/v1/completions", body: JSON.stringify({ ...common, prompt: prompt.prompt ?? "" }) };
}
