import type { ChunkArrival, EngineRequestTimes, RequestErrorKind, StreamedText } from "../scoring/request-record.js";
import { spreadTokenCounts } from "./spread-token-counts.js";

export interface StreamProblem {
  kind: RequestErrorKind;
  reason: string;
}

interface UsageLike {
  prompt_tokens?: unknown;
  completion_tokens?: unknown;
}

interface ChoiceLike {
  delta?: { content?: unknown; reasoning_content?: unknown; reasoning?: unknown } | null;
  text?: unknown;
  finish_reason?: unknown;
}

/** llama.cpp's server: its own prompt and decode times for the request, in the final chunk. */
interface TimingsLike {
  prompt_n?: unknown;
  prompt_ms?: unknown;
  predicted_n?: unknown;
  predicted_ms?: unknown;
}

interface ChunkLike {
  choices?: ChoiceLike[] | null;
  usage?: UsageLike | null;
  timings?: TimingsLike | null;
  error?: unknown;
  object?: unknown;
  message?: unknown;
}

const EXCERPT_CHARS = 160;

export function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > EXCERPT_CHARS ? `${flat.slice(0, EXCERPT_CHARS)}…` : flat;
}

function nonEmpty(value: unknown): string | null {
  return typeof value === "string" && value.length > 0 ? value : null;
}

const finiteAtLeastZero = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value) && value >= 0;

/** The engine's own times when the chunk carries all four of llama.cpp's `timings` numbers; null otherwise. */
function readTimings(timings: TimingsLike | null | undefined): EngineRequestTimes | null {
  if (!timings || typeof timings !== "object") return null;
  const { prompt_n: promptTokens, prompt_ms: promptMs, predicted_n: decodeTokens, predicted_ms: decodeMs } = timings;
  if (!finiteAtLeastZero(promptTokens) || !finiteAtLeastZero(promptMs) || !finiteAtLeastZero(decodeTokens) || !finiteAtLeastZero(decodeMs))
    return null;
  return { promptMs, promptTokens, decodeMs, decodeTokens };
}

function describeStreamError(error: unknown): string {
  if (typeof error === "string") return error;
  if (error && typeof error === "object") {
    const message = (error as { message?: unknown }).message;
    if (typeof message === "string") return message;
  }
  return JSON.stringify(error);
}

/**
 * What one completion stream has told us so far. Fed one SSE data payload at a time with its arrival
 * time; keeps per-chunk counts both as estimates (one token a non-empty delta) and as the server's
 * running usage when it reports one, and picks between them at the end.
 */
export class CompletionStreamState {
  readonly chunks: ChunkArrival[] = [];
  /** Server-reported running completion tokens per recorded chunk, while every chunk had one. */
  private runningUsage: number[] | null = [];
  private deltaCount = 0;
  /*
   * The text itself, kept for speedgate's own count and the answer comparison after the benchmark.
   * Appending is all the hot path does with it (V8 joins the strings lazily); the tokenizer never
   * runs while chunks are arriving.
   */
  private content = "";
  private reasoning = "";
  private readonly contentEnds: number[] = [];
  private readonly reasoningEnds: number[] = [];
  finishReason: string | null = null;
  promptTokens: number | null = null;
  finalCompletionTokens: number | null = null;
  /** What the engine says the request cost it (llama.cpp's `timings`), from the last chunk that carried them. */
  engineTimes: EngineRequestTimes | null = null;
  sawUsageChunk = false;
  done = false;
  problem: StreamProblem | null = null;

  /** An SSE event named "error": whatever it carries is the reason. */
  acceptErrorEvent(data: string): void {
    if (this.done || this.problem) return;
    let text = data;
    try {
      const parsed: unknown = JSON.parse(data);
      const inner = parsed && typeof parsed === "object" && "error" in parsed ? parsed.error : parsed;
      text = describeStreamError(inner);
    } catch {
      // Not JSON: the text itself is the message.
    }
    this.problem = { kind: "stream_error", reason: `error event in the stream: ${excerpt(text)}` };
  }

  /** Returns false once the stream is finished or broken: the caller stops reading. */
  accept(data: string, tMs: number): boolean {
    if (this.done || this.problem) return false;
    if (data === "[DONE]") {
      this.done = true;
      return false;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      this.problem = { kind: "stream_error", reason: `malformed JSON in a stream event: ${excerpt(data)}` };
      return false;
    }
    if (!parsed || typeof parsed !== "object") {
      this.problem = { kind: "stream_error", reason: `unexpected stream event: ${excerpt(data)}` };
      return false;
    }
    const chunk = parsed as ChunkLike;
    if (chunk.error !== undefined && chunk.error !== null) {
      this.problem = { kind: "stream_error", reason: `error event in the stream: ${excerpt(describeStreamError(chunk.error))}` };
      return false;
    }
    if (chunk.object === "error") {
      this.problem = { kind: "stream_error", reason: `error event in the stream: ${excerpt(describeStreamError(chunk))}` };
      return false;
    }
    this.engineTimes = readTimings(chunk.timings) ?? this.engineTimes;
    const usage = chunk.usage;
    let usageTokens: number | null = null;
    if (usage && typeof usage === "object") {
      if (typeof usage.prompt_tokens === "number") this.promptTokens = usage.prompt_tokens;
      if (typeof usage.completion_tokens === "number") {
        usageTokens = usage.completion_tokens;
        this.finalCompletionTokens = usageTokens;
      }
    }
    const choices = chunk.choices;
    const choice = choices && choices.length > 0 ? choices[0] : undefined;
    if (!choice) {
      if (usageTokens !== null) this.sawUsageChunk = true;
      return true;
    }
    if (typeof choice.finish_reason === "string") this.finishReason = choice.finish_reason;
    const delta = choice.delta;
    let contentText: string | null;
    let reasoningText: string | null = null;
    if (delta) {
      contentText = nonEmpty(delta.content);
      // vLLM versions send `reasoning`, `reasoning_content` or both with the same text: one of them is the text.
      reasoningText = nonEmpty(delta.reasoning_content) ?? nonEmpty(delta.reasoning);
    } else contentText = nonEmpty(choice.text);
    const hasText = contentText !== null || reasoningText !== null;
    const previousUsage = this.runningUsage && this.runningUsage.length > 0 ? (this.runningUsage[this.runningUsage.length - 1] ?? 0) : 0;
    const usageGrew = usageTokens !== null && usageTokens > previousUsage;
    if (!hasText && !usageGrew) return true;
    if (hasText) this.deltaCount++;
    if (contentText !== null) this.content += contentText;
    if (reasoningText !== null) this.reasoning += reasoningText;
    this.chunks.push({ tMs, tokens: this.deltaCount });
    this.contentEnds.push(this.content.length);
    this.reasoningEnds.push(this.reasoning.length);
    if (this.runningUsage) {
      if (usageTokens === null) this.runningUsage = null;
      else this.runningUsage.push(Math.max(usageTokens, previousUsage));
    }
    return true;
  }

  /** What the stream held, per chunk. */
  streamedText(): StreamedText {
    return { content: this.content, reasoning: this.reasoning, contentEnds: this.contentEnds, reasoningEnds: this.reasoningEnds };
  }

  /**
   * Settles the per-chunk counts. Running usage wins when every chunk carried it; otherwise the
   * one-a-delta counts are spread to the final usage total. Counts are called estimated when they are
   * neither reported per chunk nor confirmed by a total equal to the number of deltas (plus the
   * unstreamed end-of-sequence token of an answer that stopped).
   */
  settle(): { outputTokens: number; tokensEstimated: boolean } {
    const chunks = this.chunks;
    const running = this.runningUsage;
    if (running && running.length > 0 && running.length === chunks.length) {
      for (let index = 0; index < chunks.length; index++) {
        const chunk = chunks[index];
        if (chunk) chunk.tokens = running[index] ?? chunk.tokens;
      }
      const last = running[running.length - 1] ?? 0;
      return { outputTokens: Math.max(last, this.finalCompletionTokens ?? last), tokensEstimated: false };
    }
    const total = this.finalCompletionTokens;
    if (total === null) return { outputTokens: this.deltaCount, tokensEstimated: true };
    if (total === this.deltaCount) return { outputTokens: total, tokensEstimated: false };
    // An answer that stopped by itself ends with the end-of-sequence token, which llama.cpp's server (as
    // vLLM) counts in usage and never streams: one delta a token is then exact, and the count is what streamed.
    if (total === this.deltaCount + 1 && this.finishReason === "stop") return { outputTokens: this.deltaCount, tokensEstimated: false };
    const counts = chunks.map((chunk) => chunk.tokens);
    spreadTokenCounts(counts, total);
    for (let index = 0; index < chunks.length; index++) {
      const chunk = chunks[index];
      if (chunk) chunk.tokens = counts[index] ?? chunk.tokens;
    }
    return { outputTokens: total, tokensEstimated: true };
  }
}
