import { createWriteStream } from "node:fs";
import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import type { Socket } from "node:net";
import { performance } from "node:perf_hooks";
import { monotonicOffsetMs } from "../monotonic-clock.js";
import { type AnswerWords, BUILT_IN_WORDS } from "./answer-text.js";
import { loadSimInputs } from "./load-sim-inputs.js";
import type { Prompt } from "../prompts/prompt.js";
import type { Question } from "../prompts/question.js";
import type { ChunkWriteLog } from "./chunk-write-log.js";
import { createSimNoise } from "./sim-noise.js";
import { type ResponsePlan, type SimProfile, type SimProfileInput, planResponse, simProfileSchema } from "./sim-profile.js";
import { createPromptMatcher } from "./match-prompt.js";
import { promptContentKey } from "../prompts/prompt-content-key.js";
import { answerStyle, findPromptIdHint } from "./sim-integrity-profile.js";
import { decideQuestionFates, finalAnswerText } from "./sim-question-model.js";
import { takeBranch } from "./branch-answer.js";
import { createDecodeBatch } from "./decode-batch.js";
import { type SimEngineState, abandonStreams, finishRecord, newRecord } from "./sim-engine-state.js";
import { answerWhole, sendJson, streamAnswer } from "./stream-answer.js";

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
  /** The quality question set answered by the profile's question model, matched to requests by content; default: its questions.file. */
  questions?: readonly Question[];
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

/** A request's ignore_eos, as SGLang, vLLM and llama.cpp's server read it: only a JSON true asks. */
function readIgnoreEos(body: Record<string, unknown>): boolean {
  return body.ignore_eos === true;
}

function readThinking(body: Record<string, unknown>): boolean {
  const kwargs = body.chat_template_kwargs;
  if (kwargs && typeof kwargs === "object" && "enable_thinking" in kwargs) return kwargs.enable_thinking !== false;
  return true;
}

/**
 * The reference engine: an OpenAI-compatible server whose answers take exactly as long as its
 * profile says. This file serves HTTP and plans each request; stream-answer.ts writes the answers, and
 * the engine's state lives in one object (sim-engine-state.ts) that both share.
 */
export async function startSimEngine(options: SimEngineOptions = {}): Promise<SimEngine> {
  const profile = simProfileSchema.parse(options.profile ?? {});
  const { faults } = profile;
  const noise = createSimNoise(profile.noise, options.start ?? 0);
  const host = options.host ?? "127.0.0.1";
  const log = options.log ?? (() => undefined);
  const given = options.prompts && options.words && (options.questions || !profile.questions.file);
  const loaded = given ? null : await loadSimInputs(profile, options.baseDir ?? process.cwd());
  const prompts = createPromptMatcher(options.prompts ?? loaded?.prompts ?? []);
  const words = options.words ?? loaded?.words ?? BUILT_IN_WORDS;
  const promptList = options.prompts ?? loaded?.prompts ?? [];
  const promptIndex = new Map<string, number>();
  promptList.forEach((prompt, index) => {
    if (!promptIndex.has(prompt.id)) promptIndex.set(prompt.id, index);
  });
  const indexOf = (promptId: string | null): number | null => (promptId === null ? null : (promptIndex.get(promptId) ?? null));
  const questionList = options.questions ?? loaded?.questions ?? [];
  const questions = createPromptMatcher(questionList.map(({ answer: _answer, ...asked }) => asked));
  const questionById = new Map(questionList.map((question, index) => [question.id, { question, index }]));
  const fates = decideQuestionFates(
    questionList.map((question) => question.id),
    profile.questions,
  );
  const styleFor = (plan: ResponsePlan, promptId: string | null, branchAt: number | null) =>
    answerStyle(profile.answer, profile.cheats, plan.reasoningTokens + plan.contentTokens, indexOf(promptId), branchAt);
  const uncutLength = (body: Record<string, unknown>): number => {
    const length = profile.questions.answerTokens;
    const own = length === null ? profile : { ...profile, defaults: { ...profile.defaults, outputTokens: length } };
    const natural = planResponse(own, null, Number.MAX_SAFE_INTEGER, readThinking(body), 1, options.start ?? 0);
    return natural.reasoningTokens + natural.contentTokens;
  };
  // A question at a near-tie is right or wrong by a draw per request, seeded like the engine's other draws.
  const answersRight = (id: string, body: Record<string, unknown>): boolean => {
    const fate = fates.get(id);
    return fate === "unsteady" ? noise.branchDraw(`question ${noiseKey(null, body)}`) < 0.5 : fate === "right";
  };
  if (prompts.duplicates.length > 0)
    log(`sim-engine: prompts ${prompts.duplicates.join(", ")} repeat an earlier prompt's content and get its profile entry`);
  const startedAt = performance.now();
  const engine: SimEngineState = {
    profile,
    words,
    batch: createDecodeBatch(profile.batchCost),
    clockOffsetMs: monotonicOffsetMs(),
    created: Math.floor(Date.now() / 1000),
    active: new Set(),
    sockets: new Set(),
    writeLog: { requests: [] },
    keepRecords: options.keepRecords ?? true,
    chunkLog: options.chunkLogPath ? createWriteStream(options.chunkLogPath, { flags: "a" }) : null,
    answered: new Set(),
    seq: 0,
    completed: 0,
    ended: 0,
    healthy: false,
    dead: false,
  };
  const { cheats } = profile;
  let markHealthy: () => void = () => undefined;
  const healthyPromise = new Promise<void>((resolve) => {
    markHealthy = resolve;
  });
  let startupTimer: NodeJS.Timeout | null = null;

  const die = (): void => {
    if (engine.dead) return;
    engine.dead = true;
    log(`RuntimeError: sim-engine fault: exiting after ${engine.completed} requests (dieAfterRequests)`);
    abandonStreams(engine);
    server.close();
    for (const socket of engine.sockets) socket.destroy();
    (options.onDie ?? (() => undefined))(faults.dieExitCode);
  };

  const countCompleted = (): void => {
    engine.completed++;
    if (faults.dieAfterRequests !== null && engine.completed >= faults.dieAfterRequests) setImmediate(die);
  };

  const handleCompletion = (req: IncomingMessage, res: ServerResponse, chat: boolean, t0: number): void => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on("data", (part: Buffer) => {
      size += part.length;
      if (size <= MAX_BODY_BYTES) parts.push(part);
    });
    req.on("end", () => {
      if (engine.dead) return;
      let body: Record<string, unknown>;
      try {
        const parsed: unknown = JSON.parse(Buffer.concat(parts).toString("utf8"));
        if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("expected a JSON object");
        body = parsed as Record<string, unknown>;
      } catch (error) {
        const record = newRecord(engine, null, req.url ?? "", t0 + engine.clockOffsetMs);
        finishRecord(engine, record, "bad_request");
        sendJson(res, 400, {
          object: "error",
          message: `invalid JSON body: ${(error as Error).message}`,
          type: "BadRequestError",
          code: 400,
        });
        return;
      }
      const promptId = prompts.match(body);
      const hint = findPromptIdHint(req.headers, body);
      const record = newRecord(engine, promptId, req.url ?? "", t0 + engine.clockOffsetMs, hint);
      const maxTokens = readMaxTokens(body);
      // A question's answer has its own length when the model sets one.
      const questionLength = promptId === null && profile.questions.answerTokens !== null && questions.match(body) !== null;
      const plan = planResponse(
        questionLength ? { ...profile, defaults: { ...profile.defaults, outputTokens: profile.questions.answerTokens ?? 0 } } : profile,
        promptId,
        maxTokens,
        readThinking(body),
        noise.requestFactor(noiseKey(promptId, body)),
        options.start ?? 0,
        readIgnoreEos(body),
      );
      // Before any speed-up below: which continuation a request takes does not depend on how fast it is served.
      const fullLength = plan.reasoningTokens + plan.contentTokens;
      const branchAt = takeBranch(profile.answer, plan, indexOf(promptId), maxTokens, () => noise.branchDraw(noiseKey(promptId, body)));
      if (hint !== null && cheats.promptIdSpeedup !== null) {
        plan.ttftMs /= cheats.promptIdSpeedup;
        plan.itlMs /= cheats.promptIdSpeedup;
      }
      const content = promptContentKey(body);
      if (cheats.answerCacheSpeedup !== null && content !== null) {
        if (engine.answered.has(content)) {
          plan.ttftMs /= cheats.answerCacheSpeedup;
          plan.itlMs /= cheats.answerCacheSpeedup;
          record.answeredBefore = true;
        } else engine.answered.add(content);
      }
      if (plan.fault === "http500") {
        finishRecord(engine, record, "http500");
        sendJson(res, 500, {
          object: "error",
          message: "Internal server error (sim-engine fault: http500)",
          type: "InternalServerError",
          code: 500,
        });
        return;
      }
      const asked = promptId === null ? questionById.get(questions.match(body) ?? "") : undefined;
      const style = asked
        ? {
            ...answerStyle(profile.answer, profile.cheats, fullLength, asked.index, null),
            // Its last token is the final answer, as planned before max_tokens cut it: a cut answer never reaches it.
            finalAnswer: { at: uncutLength(body) - 1, text: finalAnswerText(asked.question, answersRight(asked.question.id, body)) },
          }
        : styleFor({ ...plan, contentTokens: fullLength - plan.reasoningTokens }, promptId, branchAt);
      const request = { res, record, plan, chat, body, t0, style, onSent: countCompleted };
      if (body.stream === true) streamAnswer(engine, request);
      else answerWhole(engine, request);
    });
  };

  const server: Server = createServer({ noDelay: true, keepAliveTimeout: 65_000 }, (req, res) => {
    const t0 = performance.now();
    const url = req.url ?? "/";
    const path = url.split("?")[0];
    if (req.method === "GET" && path === "/health") {
      if (engine.healthy) sendJson(res, 200, { status: "ok" });
      else sendJson(res, 503, { status: "starting" });
      return;
    }
    if (req.method === "GET" && path === "/v1/models") {
      sendJson(res, 200, {
        object: "list",
        data: [{ id: profile.model, object: "model", created: engine.created, owned_by: "speedgate-sim" }],
      });
      return;
    }
    if (req.method === "POST" && (path === "/v1/chat/completions" || path === "/v1/completions")) {
      if (!engine.healthy) {
        sendJson(res, 503, { object: "error", message: "the server is still starting", type: "ServiceUnavailableError", code: 503 });
        return;
      }
      handleCompletion(req, res, path === "/v1/chat/completions", t0);
      return;
    }
    sendJson(res, 404, { object: "error", message: `no route ${req.method ?? ""} ${path}`, type: "NotFoundError", code: 404 });
  });
  server.on("connection", (socket: Socket) => {
    engine.sockets.add(socket);
    socket.on("close", () => engine.sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    // A port that is taken ends the engine before it served anything: close what it opened first.
    const fail = (error: Error): void => {
      if (engine.chunkLog) engine.chunkLog.end(() => reject(error));
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
    log(
      `sim-engine noise: jitter ${profile.noise.jitter}, run variance ${profile.noise.runVariance}, seed ` +
        `${profile.noise.seed ?? "none"}, start ${options.start ?? 0}, speed factor ${noise.runFactor.toFixed(4)}`,
    );
  }

  const becomeHealthy = (): void => {
    engine.healthy = true;
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
    writeLog: engine.writeLog,
    healthy: healthyPromise,
    async close() {
      if (startupTimer) clearTimeout(startupTimer);
      abandonStreams(engine);
      engine.dead = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of engine.sockets) socket.destroy();
      await closed;
      const { chunkLog } = engine;
      if (chunkLog) await new Promise<void>((resolve) => chunkLog.end(() => resolve()));
    },
  };
}
