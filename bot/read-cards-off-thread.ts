import { Worker } from "node:worker_threads";
import type { ScorecardZipJob, ScorecardZipResult } from "../src/github/process-scorecard-zip.js";
import type { CardJobMessage, CardJobReply } from "./card-worker.js";

/*
 * Reading an artifact's card (inflate, JSON.parse, schema, re-gate, render) is synchronous work that
 * grows with the card: seconds for a large one. On the app's only event loop that would stall every
 * other delivery and the health check, so it runs in one worker thread, with its own heap limit and a
 * time limit. A card that exhausts either is refused like any other bad artifact; the worker is then
 * replaced and the app carries on.
 */

/** Reads artifact zips into what the app posts; a database-free seam so tests and the bench can swap it. */
export interface CardReader {
  read(job: ScorecardZipJob): Promise<ScorecardZipResult>;
  /** Stops the worker, if one runs. */
  close(): Promise<void>;
}

export interface CardWorkerLimits {
  /** The worker's old-generation heap (MB): a card that needs more is refused, the app's own heap untouched. */
  heapMb: number;
  /** Longest one card may take (ms) before it is refused and the worker replaced. */
  timeoutMs: number;
}

export const DEFAULT_CARD_WORKER_LIMITS: CardWorkerLimits = { heapMb: 1_024, timeoutMs: 120_000 };

// The app runs its TypeScript through tsx (npm run bot, the Docker image); the worker loads its entry
// through tsx's API, so it works whether or not the parent's loader hooks reach worker threads.
const TSX_API = import.meta.resolve("tsx/esm/api");
const ENTRY = new URL("./card-worker.ts", import.meta.url).href;
const BOOTSTRAP = `
const { workerData } = require("node:worker_threads");
import(workerData.tsxApi)
  .then(({ tsImport }) => tsImport(workerData.entry, workerData.entry))
  .then((module) => module.serveCardJobs());
`;

interface Pending {
  message: CardJobMessage;
  resolve: (result: ScorecardZipResult) => void;
  reject: (error: Error) => void;
}

export class WorkerCardReader implements CardReader {
  readonly #limits: CardWorkerLimits;
  readonly #queue: Pending[] = [];
  #worker: Worker | null = null;
  #current: Pending | null = null;
  #timer: NodeJS.Timeout | null = null;
  #nextId = 1;

  constructor(limits: CardWorkerLimits = DEFAULT_CARD_WORKER_LIMITS) {
    this.#limits = limits;
  }

  async read(job: ScorecardZipJob): Promise<ScorecardZipResult> {
    return await new Promise<ScorecardZipResult>((resolve, reject) => {
      this.#queue.push({ message: { id: this.#nextId++, job }, resolve, reject });
      this.#next();
    });
  }

  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = null;
    if (worker) await worker.terminate();
  }

  #start(): Worker {
    const worker = new Worker(BOOTSTRAP, {
      eval: true,
      workerData: { tsxApi: TSX_API, entry: ENTRY },
      resourceLimits: { maxOldGenerationSizeMb: this.#limits.heapMb },
    });
    worker.on("message", (reply: CardJobReply) => {
      const current = this.#current;
      if (!current || current.message.id !== reply.id) return;
      this.#finish();
      if ("error" in reply) current.reject(new Error(`reading the card failed in the worker: ${reply.error}`));
      else current.resolve(reply.result);
    });
    worker.on("error", (error) => {
      this.#fail(error);
    });
    worker.on("exit", (code) => {
      if (this.#worker === worker) this.#fail(new Error(`the card worker exited with code ${code}`));
    });
    return worker;
  }

  #next(): void {
    if (this.#current) return;
    const pending = this.#queue.shift();
    if (!pending) {
      // An idle worker must not keep the process alive.
      this.#worker?.unref();
      return;
    }
    this.#current = pending;
    this.#worker ??= this.#start();
    this.#worker.ref();
    this.#timer = setTimeout(() => {
      this.#refuse(`reading the card took longer than ${Math.round(this.#limits.timeoutMs / 1000)} s`);
    }, this.#limits.timeoutMs);
    // The zip is copied, not transferred: the caller still owns its bytes.
    this.#worker.postMessage(pending.message);
  }

  #finish(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#current = null;
    queueMicrotask(() => this.#next());
  }

  /** The current card cost too much: refuse it as an artifact problem and replace the worker. */
  #refuse(problem: string): void {
    const current = this.#current;
    this.#replaceWorker();
    this.#finish();
    current?.resolve({ ok: false, problem: `${current.message.job.source}: ${problem}` });
  }

  #fail(error: Error): void {
    const current = this.#current;
    this.#replaceWorker();
    if (!current) return;
    this.#finish();
    if ((error as NodeJS.ErrnoException).code === "ERR_WORKER_OUT_OF_MEMORY") {
      current.resolve({
        ok: false,
        problem: `${current.message.job.source}: reading the card needs more than the ${this.#limits.heapMb} MB the app allows`,
      });
    } else {
      current.reject(error);
    }
  }

  #replaceWorker(): void {
    const worker = this.#worker;
    this.#worker = null;
    if (worker) void worker.terminate();
  }
}
