import { performance } from "node:perf_hooks";
import type { Dispatcher } from "undici";
import type { Prompt } from "../prompts/prompt.js";
import type { RequestErrorKind, RequestRecord } from "../scoring/request-record.js";
import { type RequestSettings, buildRequestBody } from "./build-request-body.js";
import { CompletionStreamState, excerpt } from "./completion-stream-state.js";
import { getSharedBenchAgent, stampsReads } from "./create-bench-agent.js";
import { sharedArrivalQueue } from "./defer-arrivals.js";
import { SseParser } from "./sse-parser.js";
import { arrivalTimeMs } from "./stamp-socket-reads.js";

export type { RequestSettings } from "./build-request-body.js";

export interface SendStreamingRequestOptions {
  baseUrl: string;
  prompt: Prompt;
  settings: RequestSettings;
  signal?: AbortSignal;
  dispatcher?: Dispatcher;
  /** Told the performance.now() at which the request was handed to the socket layer (benchmarks map times to a shared clock). */
  onSend?: (sendTime: number) => void;
}

const BODY_EXCERPT_BYTES = 2048;
const DONE_GRACE_MS = 2000;
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_CLOSED",
  "UND_ERR_DESTROYED",
]);

/** Marks an abort we caused, so onResponseError can tell it from a network failure. */
class RequestStop extends Error {
  constructor(
    readonly kind: RequestErrorKind,
    reason: string,
  ) {
    super(reason);
  }
}

function describeError(error: unknown): { kind: RequestErrorKind; reason: string } {
  if (error instanceof RequestStop) return { kind: error.kind, reason: error.message };
  const err = error as { code?: unknown; message?: unknown; cause?: { code?: unknown; message?: unknown } };
  const code = typeof err.code === "string" ? err.code : typeof err.cause?.code === "string" ? err.cause.code : "";
  const message = typeof err.message === "string" ? err.message : String(error);
  const causeMessage = typeof err.cause?.message === "string" && err.cause.message !== message ? ` (${err.cause.message})` : "";
  const label = code ? `${code}: ` : "";
  const kind: RequestErrorKind = CONNECTION_CODES.has(code) || code === "" ? "connection_error" : "stream_error";
  return { kind, reason: `${label}${message}${causeMessage}` };
}

function abortReasonText(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason.message;
  if (reason && typeof reason === "object" && "message" in reason) return String(reason.message);
  return String(reason);
}

/**
 * Sends one streaming completion and records when each token-bearing chunk arrived. Never throws:
 * every way a request can go wrong becomes a FailedRequest with a reason a person can act on.
 *
 * Built on undici's dispatch handler API rather than fetch or request(): chunks arrive as plain
 * Buffers in a callback with no stream or promise per chunk. That callback only stamps the arrival
 * time and queues the chunk; parsing waits until every socket ready in that turn of the event loop
 * has been read (see ArrivalQueue), so one stream's parsing never delays another's timestamp.
 *
 * A stream that ends without `data: [DONE]` is an error, except when the finish reason and the usage
 * chunk already arrived: then the answer is complete and only the terminator was lost (proxies do
 * this), so the request counts as completed.
 */
export async function sendStreamingRequest(options: SendStreamingRequestOptions): Promise<RequestRecord> {
  const { prompt, settings, signal } = options;
  if (signal?.aborted) return { ok: false, kind: "engine_died", reason: abortReasonText(signal) };
  let origin: URL;
  try {
    origin = new URL(options.baseUrl);
  } catch {
    return { ok: false, kind: "not_sent", reason: `invalid base URL ${JSON.stringify(options.baseUrl)}` };
  }
  const basePath = origin.pathname.replace(/\/+$/, "");
  const { path, body } = buildRequestBody(prompt, settings);
  const dispatcher = options.dispatcher ?? getSharedBenchAgent();
  // Another dispatcher's sockets are not stamped: its chunks are timed when the handler sees them.
  const arrivedAt = stampsReads(dispatcher) ? arrivalTimeMs : (): number => performance.now();

  return await new Promise<RequestRecord>((resolve) => {
    const state = new CompletionStreamState();
    let sendTime = 0;
    let settled = false;
    let controller: Dispatcher.DispatchController | null = null;
    let pendingStop: RequestStop | null = null;
    let statusCode = 0;
    let errorBody = "";
    let now = 0;
    let responseClosed = false;
    const parser = new SseParser((data, event) => {
      if (settled) return;
      if (event === "error") state.acceptErrorEvent(data);
      else if (state.accept(data, now)) return;
      if (state.problem) {
        stop(null);
        return;
      }
      if (!state.done) return;
      // [DONE] ends the answer now. The response is left to end by itself so the connection can be
      // reused; a server that keeps it open after [DONE] loses it after a grace period.
      complete(now);
      setTimeout(() => {
        if (!responseClosed && controller && !controller.aborted) controller.abort(new RequestStop("stream_error", "no end after [DONE]"));
      }, DONE_GRACE_MS).unref();
    });

    const finish = (record: RequestRecord): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      resolve(record);
    };
    const fail = (kind: RequestErrorKind, reason: string, endMs: number): void => {
      const record: RequestRecord = { ok: false, kind, reason, endMs };
      if (state.chunks.length > 0) record.chunks = state.chunks;
      finish(record);
    };
    const complete = (endMs: number): void => {
      const { outputTokens, tokensEstimated } = state.settle();
      finish({
        ok: true,
        chunks: state.chunks,
        outputTokens,
        finishReason: state.finishReason,
        endMs,
        tokensEstimated,
        promptTokens: state.promptTokens,
        text: state.streamedText(),
        claimedTokens: state.finalCompletionTokens,
        countedBy: "engine",
        ...(state.engineTimes ? { engineTimes: state.engineTimes } : {}),
      });
    };
    const settleFromState = (endMs: number): void => {
      if (state.problem) fail(state.problem.kind, state.problem.reason, endMs);
      else if (state.done) complete(endMs);
      else if (state.finishReason !== null && state.sawUsageChunk) complete(endMs);
      else {
        const leftover = parser.end();
        const what =
          state.finishReason !== null ? `after finish_reason "${state.finishReason}" but before the usage chunk` : "before a finish_reason";
        fail("stream_error", `stream ended without data: [DONE], ${what}${leftover ? " (with an incomplete event)" : ""}`, endMs);
      }
    };
    /** Ends the request now; `stopReason` null means "our record is already complete". */
    const stop = (stopReason: RequestStop | null): void => {
      const endMs = performance.now() - sendTime;
      if (stopReason) fail(stopReason.kind, stopReason.message, endMs);
      else settleFromState(endMs);
      const reason = stopReason ?? new RequestStop("stream_error", "stopped reading");
      if (controller) {
        if (!controller.aborted) controller.abort(reason);
      } else pendingStop = reason;
    };

    const arrivals = sharedArrivalQueue().lane({
      handle(item, tMs) {
        if (settled) return;
        if (item === null) {
          settleFromState(tMs);
          return;
        }
        now = tMs;
        parser.feed(item);
      },
    });

    const onAbort = (): void => {
      // What arrived before the abort is part of the record.
      arrivals.flush();
      if (signal) stop(new RequestStop("engine_died", abortReasonText(signal)));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    // setTimeout fires at once beyond 2^31-1 ms; a longer limit is no limit in practice.
    const timeoutMs = Math.min(settings.requestTimeoutS * 1000, 2 ** 31 - 1);
    const timer = setTimeout(() => {
      arrivals.flush();
      stop(new RequestStop("timeout", `no complete answer within the request timeout of ${settings.requestTimeoutS} s`));
    }, timeoutMs);

    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(ctrl) {
        controller = ctrl;
        if (pendingStop) ctrl.abort(pendingStop);
      },
      onResponseStart(_ctrl, code) {
        statusCode = code;
      },
      onResponseData(_ctrl, chunk) {
        if (settled) return;
        const tMs = arrivedAt() - sendTime;
        if (statusCode !== 200) {
          if (errorBody.length < BODY_EXCERPT_BYTES) errorBody += chunk.toString("utf8");
          return;
        }
        // undici hands over the socket's own buffer and never reuses it, so it can wait in the queue.
        arrivals.push(chunk, tMs);
      },
      onResponseEnd() {
        responseClosed = true;
        if (settled) return;
        const endMs = performance.now() - sendTime;
        if (statusCode !== 200) {
          const text = excerpt(errorBody);
          fail("http_error", `HTTP ${statusCode}${text ? `: ${text}` : ""}`, endMs);
          return;
        }
        arrivals.push(null, endMs);
      },
      onResponseError(_ctrl, error) {
        responseClosed = true;
        if (settled) return;
        const endMs = performance.now() - sendTime;
        arrivals.flush();
        if (settled) return;
        const { kind, reason } = describeError(error);
        if (statusCode !== 0 && statusCode !== 200) {
          fail("http_error", `HTTP ${statusCode}, then ${reason}`, endMs);
          return;
        }
        if (state.problem) {
          fail(state.problem.kind, state.problem.reason, endMs);
          return;
        }
        const stage =
          statusCode === 0
            ? "before a response"
            : state.chunks.length > 0
              ? `after ${state.chunks.length} chunks`
              : "before the first chunk";
        fail(kind, `${reason} (${stage})`, endMs);
      },
    };

    sendTime = performance.now();
    options.onSend?.(sendTime);
    try {
      dispatcher.dispatch(
        {
          origin: origin.origin,
          path: `${basePath}${path}`,
          method: "POST",
          body,
          headers: {
            "content-type": "application/json",
            accept: "text/event-stream",
          },
        },
        handler,
      );
    } catch (error) {
      fail("not_sent", `could not send the request: ${(error as Error).message}`, 0);
    }
  });
}
