import { performance } from "node:perf_hooks";

/** What arrived for one stream, handled in arrival order once the event loop has time. */
export interface ArrivalSink {
  /** A body chunk (Uint8Array) or the response's end (null), with its arrival time. */
  handle(item: Uint8Array | null, tMs: number): void;
}

/** Longest stretch of parsing before the event loop reads the sockets again (and stamps what came in). */
const SLICE_MS = 0.1;
/** Past this much unparsed data, chunks are parsed as they come: the queue must not grow without bound. */
const MAX_PENDING_BYTES = 16 * 1024 * 1024;

interface Pending {
  sink: ArrivalSink;
  items: Array<Uint8Array | null>;
  times: number[];
  next: number;
  queued: boolean;
}

/**
 * Arrival time first, parsing later. When hundreds of streams' chunks land in one turn of the event
 * loop, each socket's chunk is stamped as it is read, and parsing (SSE, JSON) waits until every
 * ready socket has been read: had each chunk been parsed on arrival, the last socket read in a burst
 * would be stamped only after all the parsing before it. Parsing runs in slices of at most 0.1 ms,
 * with the sockets read (and stamped) between slices, so it never holds an arrival back for longer.
 */
export class ArrivalQueue {
  private readonly ready: Pending[] = [];
  private head = 0;
  private scheduled = false;
  private pendingBytes = 0;
  private readonly bySink = new Map<ArrivalSink, Pending>();

  push(sink: ArrivalSink, item: Uint8Array | null, tMs: number): void {
    if (item && this.pendingBytes + item.length > MAX_PENDING_BYTES) this.drain(Number.POSITIVE_INFINITY);
    let pending = this.bySink.get(sink);
    if (!pending) {
      pending = { sink, items: [], times: [], next: 0, queued: false };
      this.bySink.set(sink, pending);
    }
    pending.items.push(item);
    pending.times.push(tMs);
    if (item) this.pendingBytes += item.length;
    if (!pending.queued) {
      pending.queued = true;
      this.ready.push(pending);
    }
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.run);
    }
  }

  /** Handles everything one sink has pending, now (before it settles for another reason). */
  flush(sink: ArrivalSink): void {
    const pending = this.bySink.get(sink);
    if (pending) this.handleAll(pending);
  }

  private readonly run = (): void => {
    this.scheduled = false;
    this.drain(performance.now() + SLICE_MS);
    if (this.head < this.ready.length) {
      this.scheduled = true;
      setImmediate(this.run);
    }
  };

  private drain(deadline: number): void {
    while (this.head < this.ready.length) {
      const pending = this.ready[this.head] as Pending;
      while (pending.next < pending.items.length) {
        this.handleOne(pending);
        if (performance.now() > deadline) return;
      }
      this.finish(pending);
    }
    this.ready.length = 0;
    this.head = 0;
  }

  private handleAll(pending: Pending): void {
    while (pending.next < pending.items.length) this.handleOne(pending);
  }

  private handleOne(pending: Pending): void {
    const index = pending.next++;
    const item = pending.items[index] ?? null;
    const tMs = pending.times[index] ?? 0;
    pending.items[index] = null;
    if (item) this.pendingBytes -= item.length;
    pending.sink.handle(item, tMs);
  }

  /** A sink whose queue ran empty leaves the ready list; it comes back with its next arrival. */
  private finish(pending: Pending): void {
    if (pending.next < pending.items.length) return;
    pending.items.length = 0;
    pending.times.length = 0;
    pending.next = 0;
    pending.queued = false;
    this.bySink.delete(pending.sink);
    this.head++;
  }
}

let shared: ArrivalQueue | null = null;

/** The process-wide queue: one per event loop, so one slice budget covers every stream. */
export function sharedArrivalQueue(): ArrivalQueue {
  shared ??= new ArrivalQueue();
  return shared;
}
