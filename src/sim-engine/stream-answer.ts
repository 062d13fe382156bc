import type { ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import { type AnswerStyle, answerRun } from "./answer-text.js";
import type { SimRequestRecord } from "./chunk-write-log.js";
import { type ActiveStream, type SimEngineState, finishRecord, stampNow } from "./sim-engine-state.js";
import { LATE_FILLER_SPEEDUP } from "./sim-integrity-profile.js";
import type { ResponsePlan } from "./sim-profile.js";

/** One request to answer, as the server read it. */
export interface AnswerRequest {
  res: ServerResponse;
  record: SimRequestRecord;
  plan: ResponsePlan;
  chat: boolean;
  body: Record<string, unknown>;
  /** When the request arrived, on performance.now(). */
  t0: number;
  style: AnswerStyle;
  /** Called once the answer's last bytes are handed to the socket. */
  onSent: () => void;
  /** The starve cheat: the stream gets no decode step while any other stream decodes (decode-batch.ts). */
  starved?: boolean;
}

function promptTokenEstimate(body: Record<string, unknown>): number {
  const source = body.messages ?? body.prompt ?? "";
  return Math.max(1, Math.ceil(JSON.stringify(source).length / 4));
}

export function sendJson(res: ServerResponse, status: number, payload: unknown, onFlushed?: () => void): void {
  const text = JSON.stringify(payload);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text, onFlushed);
}

/**
 * Sends one SSE event of a streaming answer as one chunk of the chunked body in one socket write,
 * framing included, as uvicorn (SGLang's and vLLM's server) does. ServerResponse.write would instead
 * queue the size line, the event and the CRLF corked until the next tick and send them with writev,
 * which on this project's VM put 0.1 ms of the engine's own work between the write's record and the
 * bytes leaving, counted as the client's error. `stamp` runs once the bytes are built, just before
 * the write, so a garbage collection set off by building them is not counted either. Headers must
 * already be flushed (flushHeaders), so the socket's order is the response's; res.end() still writes
 * the last chunk and the terminator.
 */
function writeEvent(res: ServerResponse, event: string, stamp: () => void): void {
  const socket = res.socket;
  if (!socket || !res.headersSent) {
    stamp();
    res.write(event);
    return;
  }
  // Node frames a response as chunked unless the client speaks HTTP/1.0; then the bytes go as they are.
  // Encoded here, not inside write(), so the stamp comes after every allocation the write needs.
  const bytes = Buffer.from(res.chunkedEncoding ? `${Buffer.byteLength(event).toString(16)}\r\n${event}\r\n` : event);
  stamp();
  socket.write(bytes);
}

/**
 * Streams one answer as SSE events, each chunk written when the batch's decode clock reaches it (token i
 * at ttft + i·itl from the request's arrival), so timer lateness never accumulates over a long answer.
 */
export function streamAnswer(engine: SimEngineState, request: AnswerRequest): void {
  const { res, record, plan, chat, body, t0, style, onSent, starved = false } = request;
  const id = `${chat ? "chatcmpl" : "cmpl"}-sim${record.seq}`;
  const object = chat ? "chat.completion.chunk" : "text_completion";
  // Every event's fields before its choices, as the engines write them.
  const envelope = `{"id":"${id}","object":"${object}","created":${engine.created},"model":${JSON.stringify(engine.profile.model)}`;
  const head = `data: ${envelope},"choices":[{"index":0,`;
  const reasoningField = engine.profile.flavour === "vllm" ? "reasoning" : "reasoning_content";
  const promptTokens = promptTokenEstimate(body);
  const streamOptions = body.stream_options as { include_usage?: unknown; continuous_usage_stats?: unknown } | undefined;
  const includeUsage = streamOptions?.include_usage === true;
  const usagePerChunk = includeUsage && (engine.profile.usagePerChunk || streamOptions?.continuous_usage_stats === true);
  const total = plan.reasoningTokens + plan.contentTokens;
  // The claim cheat reports the full length whatever it streamed; the usage factor inflates every count.
  const claimed = (completion: number): number =>
    engine.profile.cheats.claimTokens ? total : Math.ceil(completion * engine.profile.cheats.usageFactor);
  const usageJson = (completion: number): string =>
    `{"prompt_tokens":${promptTokens},"completion_tokens":${claimed(completion)},"total_tokens":${promptTokens + claimed(completion)}}`;
  const k = plan.tokensPerChunk;
  const reasoning = chat ? plan.reasoningTokens : 0;
  const reasoningChunks = Math.ceil(reasoning / k);
  const contentChunks = Math.ceil((total - reasoning) / k);
  // The claim cheat streams its first chunk and stops there.
  const chunkCount = engine.profile.cheats.claimTokens ? Math.min(1, reasoningChunks + contentChunks) : reasoningChunks + contentChunks;
  const malformedAt = plan.fault === "malformed_sse" ? Math.floor(chunkCount / 2) : -1;
  let next = 0;

  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  res.flushHeaders();
  if (chat) res.write(`${head}"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}\n\n`);
  const stream: ActiveStream = { res, record, timer: null };
  engine.active.add(stream);

  const chunkEnd = (index: number): number =>
    index < reasoningChunks ? Math.min((index + 1) * k, reasoning) : Math.min(reasoning + (index - reasoningChunks + 1) * k, total);
  // The late-filler cheat streams its filler faster than the honest start, and its filler costs no
  // decode work: the stream leaves the batch once its honest tokens are out, and the others speed up.
  const honestTokens = style.fillerAfterTokens ?? Number.POSITIVE_INFINITY;
  let fillerFrom: number | null = null;
  // Waiting with no timer: a starved stream whose clock stands still until the others are done.
  let waiting = false;
  const member = engine.batch.join(() => reschedule(), { starved });
  // The stream decodes in the batch from its arrival: its token i is due when the batch's decode
  // clock has run ttft + i·itl since then (the wall clock itself when the batch costs nothing).
  const joinedAt = member.clock() - (performance.now() - t0);
  const dueAt = (index: number): number => {
    const tokens = chunkEnd(index) - 1;
    if (tokens < honestTokens) return member.wallAt(joinedAt + plan.ttftMs + tokens * plan.itlMs);
    if (fillerFrom === null) {
      fillerFrom = member.wallAt(joinedAt + plan.ttftMs + honestTokens * plan.itlMs);
      member.leave();
    }
    return fillerFrom + (tokens - honestTokens) * (plan.itlMs / LATE_FILLER_SPEEDUP);
  };

  const writeChunk = (index: number): void => {
    const isReasoning = index < reasoningChunks;
    const from = isReasoning ? index * k : reasoning + (index - reasoningChunks) * k;
    const to = chunkEnd(index);
    const text = isReasoning
      ? answerRun(engine.words, style, "reasoning", from, to, 0)
      : answerRun(engine.words, style, "content", from - reasoning, to - reasoning, reasoning);
    const field = !chat ? "text" : isReasoning ? reasoningField : "content";
    const payload = chat ? `"delta":{"${field}":${JSON.stringify(text)}},` : `"text":${JSON.stringify(text)},`;
    const usage = usagePerChunk ? `,"usage":${usageJson(to)}` : "";
    const line = `${head}${payload}"logprobs":null,"finish_reason":null}]${usage}}\n\n`;
    writeEvent(res, line, () => record.chunkWritesMs.push(stampNow(engine)));
  };

  const finishStream = (): void => {
    const holdAfter = engine.profile.faults.holdAfterRequests;
    // The hold fault: every token is out, the end never is; the stream stays in flight until the engine goes.
    if (holdAfter !== null && engine.ended >= holdAfter) return;
    engine.ended++;
    engine.active.delete(stream);
    member.leave();
    const finalDelta = chat ? `"delta":{},` : `"text":"",`;
    const usage = usagePerChunk ? `,"usage":${usageJson(total)}` : "";
    let tail = `${head}${finalDelta}"logprobs":null,"finish_reason":"${plan.finishReason}"}]${usage}}\n\n`;
    if (includeUsage) {
      tail += `data: ${envelope},"choices":[],"usage":${usageJson(total)}}\n\n`;
    }
    tail += "data: [DONE]\n\n";
    finishRecord(engine, record, "completed");
    // Counted once the answer's last bytes are handed to the socket: dieAfterRequests destroys every
    // socket, and on a busy machine it came before the flush and broke the very answer it counted.
    res.end(tail, onSent);
  };

  /** A timer for the next chunk, or none while it is not due at any wall time yet (a starved stream waiting). */
  const schedule = (): void => {
    const due = dueAt(next);
    waiting = !Number.isFinite(due);
    stream.timer = waiting ? null : setTimeout(pump, Math.max(0, due - performance.now()));
  };

  /** The batch's pace changed: the next chunk is due at another wall time. */
  const reschedule = (): void => {
    if ((stream.timer === null && !waiting) || next >= chunkCount) return;
    if (stream.timer) clearTimeout(stream.timer);
    schedule();
  };

  const pump = (): void => {
    stream.timer = null;
    waiting = false;
    if (engine.dead || res.destroyed) {
      member.leave();
      return;
    }
    const now = performance.now();
    while (next < chunkCount && dueAt(next) <= now) {
      if (next === malformedAt) {
        engine.active.delete(stream);
        member.leave();
        res.end(`${head}"delta":{"content":"broken\n\n`);
        finishRecord(engine, record, "malformed_sse");
        return;
      }
      writeChunk(next);
      next++;
    }
    if (next >= chunkCount) {
      finishStream();
      return;
    }
    schedule();
  };

  res.on("close", () => {
    if (!res.writableFinished && record.finishedAtMs === null) {
      if (stream.timer) clearTimeout(stream.timer);
      waiting = false;
      engine.active.delete(stream);
      member.leave();
      finishRecord(engine, record, "client_closed");
    }
  });
  pump();
}

/** Answers a request that did not ask to stream with one JSON body, once its last token is due. */
export function answerWhole(engine: SimEngineState, request: AnswerRequest): void {
  const { res, record, plan, chat, body, t0, style, onSent } = request;
  const total = plan.reasoningTokens + plan.contentTokens;
  const reasoning = chat ? plan.reasoningTokens : 0;
  const doneAt = t0 + plan.ttftMs + Math.max(0, total - 1) * plan.itlMs;
  const promptTokens = promptTokenEstimate(body);
  const usage = { prompt_tokens: promptTokens, completion_tokens: total, total_tokens: promptTokens + total };
  const stream: ActiveStream = { res, record, timer: null };
  engine.active.add(stream);
  stream.timer = setTimeout(
    () => {
      engine.active.delete(stream);
      if (engine.dead) return;
      if (res.destroyed) {
        finishRecord(engine, record, "client_closed");
        return;
      }
      if (plan.fault === "malformed_sse") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end('{"id": "broken", "choices": [');
        finishRecord(engine, record, "malformed_sse");
        return;
      }
      const content = answerRun(engine.words, style, "content", 0, total - reasoning, reasoning);
      const reasoningText = reasoning > 0 ? answerRun(engine.words, style, "reasoning", 0, reasoning, 0) : null;
      const reasoningField = engine.profile.flavour === "vllm" ? "reasoning" : "reasoning_content";
      const choice = chat
        ? {
            index: 0,
            message: { role: "assistant", content, [reasoningField]: reasoningText },
            logprobs: null,
            finish_reason: plan.finishReason,
          }
        : { index: 0, text: content, logprobs: null, finish_reason: plan.finishReason };
      sendJson(
        res,
        200,
        {
          id: `${chat ? "chatcmpl" : "cmpl"}-sim${record.seq}`,
          object: chat ? "chat.completion" : "text_completion",
          created: engine.created,
          model: engine.profile.model,
          choices: [choice],
          usage,
        },
        onSent,
      );
      finishRecord(engine, record, "completed");
    },
    Math.max(0, doneAt - performance.now()),
  );
}
