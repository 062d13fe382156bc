import type { Prompt } from "../prompts/prompt.js";

export interface RequestSettings {
  model: string;
  maxTokens: number;
  thinking: boolean;
  requestTimeoutS: number;
}

/**
 * The OpenAI-compatible request both engines get, and nothing more: no header or field names the
 * prompt or says that a benchmark is running, so a patch cannot special-case what is measured.
 * `max_tokens` and `max_completion_tokens` are both sent because SGLang and vLLM versions differ in
 * which one they honour; temperature 0 makes the answers deterministic, so the candidate's answer
 * can be held to the baseline's.
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
