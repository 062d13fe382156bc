import type { SideEffectOutcome, SideEffectRequest } from "../../src/store/run-side-effect-once.js";
import type { CardRecord, LeaderboardCard, StoredCard } from "../../src/store/card-history.js";
import type {
  BisectionRound,
  BisectionTrigger,
  MainRoundRecord,
  MainSeriesPoint,
  StoredBisection,
  StoredOutcome,
} from "../../src/store/main-series.js";
import type { CardDocumentRecord } from "../../src/store/card-documents.js";
import { type DeliveryLedger, MemoryDeliveryLedger } from "../delivery-ledger.js";
import { type HeadPushLog, MemoryHeadPushLog } from "../head-push-log.js";
import { MemoryRefusalLimiter, type RefusalLimiter } from "../refusal-limiter.js";
import type { AppLog, WorkStore } from "../work/app-work.js";
import { InlineWork } from "../work/inline-work.js";

/** Side effects GitHub does not de-duplicate (a dispatch), done at most once per key. */
export interface SideEffects {
  once<R>(request: SideEffectRequest<R>): Promise<SideEffectOutcome<R>>;
}

/** Every card the app posts, for the trend on the card and the leaderboard (src/store/card-history.ts). */
export interface CardHistory {
  record(card: CardRecord): Promise<void>;
  /** Keeps the round's whole card (src/store/card-documents.ts); returns its page's id, the same for the same run's attempt. */
  recordDocument(document: CardDocumentRecord): Promise<string>;
  /** One card per scored commit of a pull request, in the order they were first scored. */
  trend(repository: string, pullRequest: number): Promise<StoredCard[]>;
  /** The best card of each open pull request. */
  leaderboard(repository: string): Promise<LeaderboardCard[]>;
  setPullState(state: { repository: string; number: number; state: "open" | "closed"; headSha: string | null }): Promise<void>;
  /** The pull requests of the repository that have cards, and whether the history counts each as open. */
  scoredPulls(repository: string): Promise<Array<{ number: number; open: boolean }>>;
  leaderboardIssue(repository: string): Promise<{ number: number; pinned: boolean } | null>;
  recordLeaderboardIssue(repository: string, issue: { number: number; pinned: boolean }): Promise<void>;
}

/** Main's series and its bisections (src/store/main-series.ts): what the watch's cards and the bisection's steps write. */
export interface MainSeriesStore {
  recordRound(record: MainRoundRecord): Promise<number>;
  /** Null when another bisection of the repository is running: one at a time. */
  startBisection(bisection: {
    repository: string;
    commits: readonly string[];
    scenario: string | null;
    trigger: BisectionTrigger;
  }): Promise<number | null>;
  running(repository: string): Promise<StoredBisection | null>;
  bisection(id: number): Promise<StoredBisection | null>;
  rounds(bisectionId: number): Promise<BisectionRound[]>;
  /** A merge's rounds against its parent (watch.everyMerge). */
  mergeRounds(repository: string, headSha: string): Promise<BisectionRound[]>;
  finish(id: number, end: { outcome: StoredOutcome | null; status: "done" | "abandoned"; trackingIssue?: number | null }): Promise<void>;
  /** One scenario's drift rounds in main's order: what the change-point method reads. */
  driftSeries(repository: string, scenario: string | null): Promise<MainSeriesPoint[]>;
  /** Records a change point once; false when it was recorded before (its bisection was started then). */
  recordChangePoint(point: {
    repository: string;
    scenario: string | null;
    firstRoundId: number;
    pValue: number;
    change: number;
    bisectionId: number | null;
  }): Promise<boolean>;
}

/** Where the app keeps what must be shared by replicas and outlive a restart. */
export interface AppStore {
  work: WorkStore;
  refusals: RefusalLimiter;
  heads: HeadPushLog;
  sideEffects: SideEffects;
  /** Null without a database: no trend line, no leaderboard. */
  history: CardHistory | null;
  /** Null without a database: the watch's cards are not read, nothing is bisected. */
  main: MainSeriesStore | null;
  /** When GitHub first tried to send this delivery, when the app knows (it asked for it again after an outage). */
  firstDeliveredAt(deliveryId: string): Promise<number | null>;
  /** Stops running work (see WorkStore.stop for `graceMs`) and closes what the store opened. */
  close(options?: { graceMs?: number }): Promise<void>;
}

/** Done results by key, for one process: at most once while it lives. */
class MemorySideEffects implements SideEffects {
  readonly #done = new Map<string, unknown>();

  async once<R>(request: SideEffectRequest<R>): Promise<SideEffectOutcome<R>> {
    if (this.#done.has(request.key)) return { state: "done", result: this.#done.get(request.key) as R, sentNow: false };
    const result = await request.send();
    this.#done.set(request.key, result);
    return { state: "done", result, sentNow: true };
  }
}

/** The store of unit tests: in memory, work done inline in the delivery (one attempt), no history. */
export function memoryAppStore(
  log: AppLog,
  parts: { deliveries?: DeliveryLedger; refusals?: RefusalLimiter; heads?: HeadPushLog } = {},
): AppStore {
  return {
    work: new InlineWork(parts.deliveries ?? new MemoryDeliveryLedger(), log),
    refusals: parts.refusals ?? new MemoryRefusalLimiter(),
    heads: parts.heads ?? new MemoryHeadPushLog(),
    sideEffects: new MemorySideEffects(),
    history: null,
    main: null,
    firstDeliveredAt: () => Promise.resolve(null),
    close: () => Promise.resolve(),
  };
}
