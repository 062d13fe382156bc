import { type WriteStream, createWriteStream } from "node:fs";
import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import type { Socket } from "node:net";
import { performance } from "node:perf_hooks";
import { monotonicOffsetMs } from "../bench/monotonic-clock.js";
import { type AnswerStyle, type AnswerWords, BUILT_IN_WORDS, answerRun } from "./answer-text.js";
import { loadSimInputs } from "./load-sim-inputs.js";
import type { Prompt } from "../prompts/prompt.js";
import type { ChunkWriteLog, SimRequestRecord } from "./chunk-write-log.js";
import { createSimNoise } from "./sim-noise.js";
import { type ResponsePlan, type SimProfile, type SimProfileInput, planResponse, simProfileSchema } from "./sim-profile.js";
import { createPromptMatcher } from "./match-prompt.js";
import { promptContentKey } from "../prompts/prompt-content-key.js";
import { LATE_FILLER_SPEEDUP, answerStyle, findPromptIdHint } from "./sim-integrity-profile.js";
import { createDecodeBatch } from "./decode-batch.js";

export const READY_LINE = "The server is fired up and ready to roll!";
const MAX_BODY_BYTES = 16 * 1024 * 1024;

export interface SimEngineOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: any free port. */
  port?: number;
  /** Parsed with the profile schema, so a partial object gets the defaults. */
  profile?: SimProfileInput;
  /** Where the profile's promptsFile and tokenizer paths are relative to. Default: the working folder. */
  baseDir?: string;
  /** The prompts the profile names by id, matched to requests by content; default: the profile's promptsFile. */
  prompts?: readonly Prompt[];
  /** The words answers are made of; default: those of the profile's tokenizer, else the built-in ones. */
  words?: AnswerWords;
  /** Where startup and fault lines go (a real engine's log). Default: nowhere. */
  log?: (line: string) => void;
  /** Appends one JSON line per finished request (its SimRequestRecord). */
  chunkLogPath?: string;
  /** Which start of this engine this is, for the per-start noise draw (see sim-noise.ts). Default 0. */
  start?: number;
  /** Keep every request's record in memory (writeLog). Default true; a long-running CLI engine turns it off. */
  keepRecords?: boolean;
  /**
   * Called when the die-after-N-requests fault fires, after the engine stopped answering. The CLI
   * exits the process here; in-process callers see every connection dropped, as after a crash.
   */
  onDie?: (exitCode: number) => void;
}

export interface SimEngine {
  url: string;
  port: number;
  profile: SimProfile;
  /** When each chunk was written, per request (empty when keepRecords is false). */
  writeLog: ChunkWriteLog;
  /** Resolves when /health answers 200 (never, with the neverHealthy fault). */
  healthy: Promise<void>;
  close(): Promise<void>;
}

interface ActiveStream {
  res: ServerResponse;
  record: SimRequestRecord;
  timer: NodeJS.Timeout | null;
}

function promptTokenEstimate(body: Record<string, unknown>): number {
  const source = body.messages ?? body.prompt ?? "";
  return Math.max(1, Math.ceil(JSON.stringify(source).length / 4));
}


/** What identifies a request's prompt for its noise draw: its id, else its content. */
function noiseKey(promptId: string | null, body: Record<string, unknown>): string {
  return promptId ?? JSON.stringify(body.messages ?? body.prompt ?? "");
}

function readMaxTokens(body: Record<string, unknown>): number {
  for (const key of ["max_completion_tokens", "max_tokens"] as const) {
    const value = body[key];
    if (typeof value === "number" && Number.isFinite(value) && value >= 0) return Math.floor(value);
  }
  return Number.MAX_SAFE_INTEGER;
}

function readThinking(body: Record<string, unknown>): boolean {
  const kwargs = body.chat_template_kwargs;
  if (kwargs && typeof kwargs === "object" && "enable_thinking" in kwargs) return (kwargs).enable_thinking !== false;
  return true;
}

function sendJson(res: ServerResponse, status: number, payload: unknown, onFlushed?: () => void): void {
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
 * The reference engine: an OpenAI-compatible server whose answers take exactly as long as its
 * profile says. Chunk writes are scheduled against absolute target times from the request's arrival
 * (token i at ttft + i·itl), so timer lateness never accumulates over a long answer.
 */
export async function startSimEngine(options: SimEngineOptions = {}): Promise<SimEngine> {
  const profile = simProfileSchema.parse(options.profile ?? {});
  const { faults } = profile;
  const noise = createSimNoise(profile.noise, options.start ?? 0);
  const host = options.host ?? "127.0.0.1";
  const log = options.log ?? (() => undefined);
  const keepRecords = options.keepRecords ?? true;
  const loaded = options.prompts && options.words ? null : await loadSimInputs(profile, options.baseDir ?? process.cwd());
  const prompts = createPromptMatcher(options.prompts ?? loaded?.prompts ?? []);
  const words = options.words ?? loaded?.words ?? BUILT_IN_WORDS;
  const promptList = options.prompts ?? loaded?.prompts ?? [];
  const promptIndex = new Map<string, number>();
  promptList.forEach((prompt, index) => {
    if (!promptIndex.has(prompt.id)) promptIndex.set(prompt.id, index);
  });
  const styleFor = (plan: ResponsePlan, promptId: string | null) =>
    answerStyle(profile.answer, profile.cheats, plan.reasoningTokens + plan.contentTokens, promptId === null ? null : (promptIndex.get(promptId) ?? null));
  const batch = createDecodeBatch(profile.batchCost);
  const { cheats } = profile;
  if (prompts.duplicates.length > 0) log(`sim-engine: prompts ${prompts.duplicates.join(", ")} repeat an earlier prompt's content and get its profile entry`);
  const offset = monotonicOffsetMs();
  const startedAt = performance.now();
  const writeLog: { requests: SimRequestRecord[] } = { requests: [] };
  const chunkLog: WriteStream | null = options.chunkLogPath ? createWriteStream(options.chunkLogPath, { flags: "a" }) : null;
  const active = new Set<ActiveStream>();
  const sockets = new Set<Socket>();
  /** What the answer-cache cheat has answered: a request with the same content comes back faster. */
  const answered = new Set<string>();
  let seq = 0;
  let completed = 0;
  let dead = false;
  let healthy = false;
  let markHealthy: () => void = () => undefined;
  const healthyPromise = new Promise<void>((resolve) => {
    markHealthy = resolve;
  });
  let startupTimer: NodeJS.Timeout | null = null;
  const created = Math.floor(Date.now() / 1000);

  const finishRecord = (record: SimRequestRecord, outcome: SimRequestRecord["outcome"]): void => {
    if (record.finishedAtMs !== null) return;
    record.finishedAtMs = performance.now() + offset;
    record.outcome = outcome;
    chunkLog?.write(`${JSON.stringify(record)}\n`);
  };

  const die = (): void => {
    if (dead) return;
    dead = true;
    log(`RuntimeError: sim-engine fault: exiting after ${completed} requests (dieAfterRequests)`);
    for (const stream of active) {
      if (stream.timer) clearTimeout(stream.timer);
      finishRecord(stream.record, "engine_died");
    }
    active.clear();
    server.close();
    for (const socket of sockets) socket.destroy();
    (options.onDie ?? (() => undefined))(faults.dieExitCode);
  };

  const countCompleted = (): void => {
    completed++;
    if (faults.dieAfterRequests !== null && completed >= faults.dieAfterRequests) setImmediate(die);
  };

  const newRecord = (promptId: string | null, path: string, receivedAtMs: number, promptIdHint: string | null = null): SimRequestRecord => {
    const record: SimRequestRecord = {
      seq: ++seq,
      promptId,
      promptIdHint,
      path,
      receivedAtMs,
      chunkWritesMs: [],
      finishedAtMs: null,
      outcome: "streaming",
    };
    if (keepRecords) writeLog.requests.push(record);
    return record;
  };

  const streamAnswer = (res: ServerResponse, record: SimRequestRecord, plan: ResponsePlan, chat: boolean, body: Record<string, unknown>, t0: number, style: AnswerStyle): void => {
    const id = `${chat ? "chatcmpl" : "cmpl"}-sim${record.seq}`;
    const head = `data: {"id":"${id}","object":"${chat ? "chat.completion.chunk" : "text_completion"}","created":${created},"model":${JSON.stringify(profile.model)},"choices":[{"index":0,`;
    const reasoningField = profile.flavour === "vllm" ? "reasoning" : "reasoning_content";
    const promptTokens = promptTokenEstimate(body);
    const streamOptions = body.stream_options as { include_usage?: unknown; continuous_usage_stats?: unknown } | undefined;
    const includeUsage = streamOptions?.include_usage === true;
    const usagePerChunk = includeUsage && (profile.usagePerChunk || streamOptions?.continuous_usage_stats === true);
    const total = plan.reasoningTokens + plan.contentTokens;
    // The claim cheat reports the full length whatever it streamed; the usage factor inflates every count.
    const claimed = (completion: number): number => (cheats.claimTokens ? total : Math.ceil(completion * cheats.usageFactor));
    const usageJson = (completion: number): string =>
      `{"prompt_tokens":${promptTokens},"completion_tokens":${claimed(completion)},"total_tokens":${promptTokens + claimed(completion)}}`;
    const k = plan.tokensPerChunk;
    const reasoning = chat ? plan.reasoningTokens : 0;
    const reasoningChunks = Math.ceil(reasoning / k);
    const contentChunks = Math.ceil((total - reasoning) / k);
    // The claim cheat streams its first chunk and stops there.
    const chunkCount = cheats.claimTokens ? Math.min(1, reasoningChunks + contentChunks) : reasoningChunks + contentChunks;
    const malformedAt = plan.fault === "malformed_sse" ? Math.floor(chunkCount / 2) : -1;
    let next = 0;

    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    res.flushHeaders();
    if (chat) res.write(`${head}"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}\n\n`);
    const stream: ActiveStream = { res, record, timer: null };
    active.add(stream);

    const chunkEnd = (index: number): number =>
      index < reasoningChunks ? Math.min((index + 1) * k, reasoning) : Math.min(reasoning + (index - reasoningChunks + 1) * k, total);
    // The stream decodes in the batch from its arrival: its token i is due when the batch's decode
    // clock has run ttft + i·itl since then (the wall clock itself when the batch costs nothing).
    const joinedAt = batch.clock() - (performance.now() - t0);
    // The late-filler cheat streams its filler faster than the honest start, and its filler costs no
    // decode work: the stream leaves the batch once its honest tokens are out, and the others speed up.
    const honestTokens = style.fillerAfterTokens ?? Number.POSITIVE_INFINITY;
    let fillerFrom: number | null = null;
    const member = batch.join(() => reschedule());
    const dueAt = (index: number): number => {
      const tokens = chunkEnd(index) - 1;
      if (tokens < honestTokens) return batch.wallAt(joinedAt + plan.ttftMs + tokens * plan.itlMs);
      if (fillerFrom === null) {
        fillerFrom = batch.wallAt(joinedAt + plan.ttftMs + honestTokens * plan.itlMs);
        member.leave();
      }
      return fillerFrom + (tokens - honestTokens) * (plan.itlMs / LATE_FILLER_SPEEDUP);
    };

    const writeChunk = (index: number): void => {
      const isReasoning = index < reasoningChunks;
      const from = isReasoning ? index * k : reasoning + (index - reasoningChunks) * k;
      const to = chunkEnd(index);
      const text = isReasoning ? answerRun(words, style, "reasoning", from, to, 0) : answerRun(words, style, "content", from - reasoning, to - reasoning, reasoning);
      const field = !chat ? "text" : isReasoning ? reasoningField : "content";
      const payload = chat ? `"delta":{"${field}":${JSON.stringify(text)}},` : `"text":${JSON.stringify(text)},`;
      const usage = usagePerChunk ? `,"usage":${usageJson(to)}` : "";
      const line = `${head}${payload}"logprobs":null,"finish_reason":null}]${usage}}\n\n`;
      writeEvent(res, line, () => record.chunkWritesMs.push(performance.now() + offset));
    };

    const finishStream = (): void => {
      active.delete(stream);
      member.leave();
      const finalDelta = chat ? `"delta":{},` : `"text":"",`;
      const usage = usagePerChunk ? `,"usage":${usageJson(total)}` : "";
      let tail = `${head}${finalDelta}"logprobs":null,"finish_reason":"${plan.finishReason}"}]${usage}}\n\n`;
      if (includeUsage) {
        tail += `data: {"id":"${id}","object":"${chat ? "chat.completion.chunk" : "text_completion"}","created":${created},"model":${JSON.stringify(profile.model)},"choices":[],"usage":${usageJson(total)}}\n\n`;
      }
      tail += "data: [DONE]\n\n";
      finishRecord(record, "completed");
      // Counted once the answer's last bytes are handed to the socket: dieAfterRequests destroys every
      // socket, and on a busy machine it came before the flush and broke the very answer it counted.
      res.end(tail, countCompleted);
    };

    /** The batch's pace changed: the next chunk is due at another wall time. */
    const reschedule = (): void => {
      if (stream.timer === null || next >= chunkCount) return;
      clearTimeout(stream.timer);
      stream.timer = setTimeout(pump, Math.max(0, dueAt(next) - performance.now()));
    };

    const pump = (): void => {
      stream.timer = null;
      if (dead || res.destroyed) {
        member.leave();
        return;
      }
      const now = performance.now();
      while (next < chunkCount && dueAt(next) <= now) {
        if (next === malformedAt) {
          active.delete(stream);
          member.leave();
          res.end(`${head}"delta":{"content":"broken\n\n`);
          finishRecord(record, "malformed_sse");
          return;
        }
        writeChunk(next);
        next++;
      }
      if (next >= chunkCount) {
        finishStream();
        return;
      }
      stream.timer = setTimeout(pump, Math.max(0, dueAt(next) - performance.now()));
    };

    res.on("close", () => {
      if (!res.writableFinished && record.finishedAtMs === null) {
        if (stream.timer) clearTimeout(stream.timer);
        active.delete(stream);
        member.leave();
        finishRecord(record, "client_closed");
      }
    });
    pump();
  };

  const answerWhole = (res: ServerResponse, record: SimRequestRecord, plan: ResponsePlan, chat: boolean, body: Record<string, unknown>, t0: number, style: AnswerStyle): void => {
    const total = plan.reasoningTokens + plan.contentTokens;
    const reasoning = chat ? plan.reasoningTokens : 0;
    const doneAt = t0 + plan.ttftMs + Math.max(0, total - 1) * plan.itlMs;
    const promptTokens = promptTokenEstimate(body);
    const usage = { prompt_tokens: promptTokens, completion_tokens: total, total_tokens: promptTokens + total };
    const stream: ActiveStream = { res, record, timer: null };
    active.add(stream);
    stream.timer = setTimeout(() => {
      active.delete(stream);
      if (dead) return;
      if (res.destroyed) {
        finishRecord(record, "client_closed");
        return;
      }
      if (plan.fault === "malformed_sse") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end('{"id": "broken", "choices": [');
        finishRecord(record, "malformed_sse");
        return;
      }
      const content = answerRun(words, style, "content", 0, total - reasoning, reasoning);
      const reasoningText = reasoning > 0 ? answerRun(words, style, "reasoning", 0, reasoning, 0) : null;
      const reasoningField = profile.flavour === "vllm" ? "reasoning" : "reasoning_content";
      const choice = chat
        ? { index: 0, message: { role: "assistant", content, [reasoningField]: reasoningText }, logprobs: null, finish_reason: plan.finishReason }
        : { index: 0, text: content, logprobs: null, finish_reason: plan.finishReason };
      sendJson(res, 200, {
        id: `${chat ? "chatcmpl" : "cmpl"}-sim${record.seq}`,
        object: chat ? "chat.completion" : "text_completion",
        created,
        model: profile.model,
        choices: [choice],
        usage,
      }, countCompleted);
      finishRecord(record, "completed");
    }, Math.max(0, doneAt - performance.now()));
  };

  const handleCompletion = (req: IncomingMessage, res: ServerResponse, chat: boolean, t0: number): void => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on("data", (part: Buffer) => {
      size += part.length;
      if (size <= MAX_BODY_BYTES) parts.push(part);
    });
    req.on("end", () => {
      if (dead) return;
      let body: Record<string, unknown>;
      try {
        const parsed: unknown = JSON.parse(Buffer.concat(parts).toString("utf8"));
        if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("expected a JSON object");
        body = parsed as Record<string, unknown>;
      } catch (error) {
        const record = newRecord(null, req.url ?? "", t0 + offset);
        finishRecord(record, "bad_request");
        sendJson(res, 400, { object: "error", message: `invalid JSON body: ${(error as Error).message}`, type: "BadRequestError", code: 400 });
        return;
      }
      const promptId = prompts.match(body);
      const hint = findPromptIdHint(req.headers, body);
      const record = newRecord(promptId, req.url ?? "", t0 + offset, hint);
      const plan = planResponse(profile, promptId, readMaxTokens(body), readThinking(body), noise.requestFactor(noiseKey(promptId, body)), options.start ?? 0);
      if (hint !== null && cheats.promptIdSpeedup !== null) {
        plan.ttftMs /= cheats.promptIdSpeedup;
        plan.itlMs /= cheats.promptIdSpeedup;
      }
      const content = promptContentKey(body);
      if (cheats.answerCacheSpeedup !== null && content !== null) {
        if (answered.has(content)) {
          plan.ttftMs /= cheats.answerCacheSpeedup;
          plan.itlMs /= cheats.answerCacheSpeedup;
          record.answeredBefore = true;
        } else answered.add(content);
      }
      if (plan.fault === "http500") {
        finishRecord(record, "http500");
        sendJson(res, 500, { object: "error", message: "Internal server error (sim-engine fault: http500)", type: "InternalServerError", code: 500 });
        return;
      }
      const style = styleFor(plan, promptId);
      if (body.stream === true) streamAnswer(res, record, plan, chat, body, t0, style);
      else answerWhole(res, record, plan, chat, body, t0, style);
    });
  };

  const server: Server = createServer({ noDelay: true, keepAliveTimeout: 65_000 }, (req, res) => {
    const t0 = performance.now();
    const url = req.url ?? "/";
    const path = url.split("?")[0];
    if (req.method === "GET" && path === "/health") {
      if (healthy) sendJson(res, 200, { status: "ok" });
      else sendJson(res, 503, { status: "starting" });
      return;
    }
    if (req.method === "GET" && path === "/v1/models") {
      sendJson(res, 200, { object: "list", data: [{ id: profile.model, object: "model", created, owned_by: "speedgate-sim" }] });
      return;
    }
    if (req.method === "POST" && (path === "/v1/chat/completions" || path === "/v1/completions")) {
      if (!healthy) {
        sendJson(res, 503, { object: "error", message: "the server is still starting", type: "ServiceUnavailableError", code: 503 });
        return;
      }
      handleCompletion(req, res, path === "/v1/chat/completions", t0);
      return;
    }
    sendJson(res, 404, { object: "error", message: `no route ${req.method ?? ""} ${path}`, type: "NotFoundError", code: 404 });
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    // A port that is taken ends the engine before it served anything: close what it opened first.
    const fail = (error: Error): void => {
      if (chunkLog) chunkLog.end(() => reject(error));
      else reject(error);
    };
    server.once("error", fail);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", fail);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  log(`sim-engine listening on ${url} (model ${profile.model}, ${profile.flavour} flavour)`);
  if (profile.noise.jitter > 0 || profile.noise.runVariance > 0) {
    log(`sim-engine noise: jitter ${profile.noise.jitter}, run variance ${profile.noise.runVariance}, seed ${profile.noise.seed ?? "none"}, start ${options.start ?? 0}, speed factor ${noise.runFactor.toFixed(4)}`);
  }

  const becomeHealthy = (): void => {
    healthy = true;
    log(READY_LINE);
    markHealthy();
  };
  if (!faults.neverHealthy) {
    const wait = faults.startupDelayMs - (performance.now() - startedAt);
    if (wait > 0) startupTimer = setTimeout(becomeHealthy, wait);
    else becomeHealthy();
  }

  return {
    url,
    port,
    profile,
    writeLog,
    healthy: healthyPromise,
    async close() {
      if (startupTimer) clearTimeout(startupTimer);
      for (const stream of active) {
        if (stream.timer) clearTimeout(stream.timer);
        finishRecord(stream.record, "engine_died");
      }
      active.clear();
      dead = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
      if (chunkLog) await new Promise<void>((resolve) => chunkLog.end(() => resolve()));
    },
  };
}
