import type { Prompt } from "../prompts/prompt.js";
import type { EngineFamily } from "../vocabulary/engine-family.js";

export interface RequestSettings {
  model: string;
  maxTokens: number;
  thinking: boolean;
  requestTimeoutS: number;
  /**
   * Asks the engine to write every answer to its limit, past the end-of-sequence token (synthetic
   * prompts of fixed lengths): the comparison then measures speed alone. Absent: false.
   */
  ignoreEos?: boolean;
  /** Whose words to ask in: llama.cpp's server reads its own `n_predict` beside the OpenAI limit. Absent or null: unknown. */
  engineFamily?: EngineFamily | null;
}

/*
 * SGLang, vLLM and llama.cpp's server all read `ignore_eos` from an OpenAI-compatible request; an
 * engine that does not is found out on the card, which counts the answers that kept the length.
 */
function fixedLengthFields(settings: RequestSettings, maxTokens: number): Record<string, unknown> {
  if (!settings.ignoreEos) return {};
  return { ignore_eos: true, ...(settings.engineFamily === "llama.cpp" ? { n_predict: maxTokens } : {}) };
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
    ...fixedLengthFields(settings, maxTokens),
  };
  if (prompt.messages) {
    return { path: "/v1/chat/completions", body: JSON.stringify({ ...common, messages: prompt.messages }) };
  }
  return { path: "/v1/completions", body: JSON.stringify({ ...common, prompt: prompt.prompt ?? "" }) };
}
