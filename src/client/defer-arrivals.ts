import { performance } from "node:perf_hooks";

/** What arrived for one stream, handled in arrival order once the event loop has time. */
export interface ArrivalSink {
  /** A body chunk (Uint8Array) or the response's end (null), with its arrival time. */
  handle(item: Uint8Array | null, tMs: number): void;
}

/** One stream's place in the queue. */
export interface ArrivalLane {
  push(item: Uint8Array | null, tMs: number): void;
  /** Handles everything this stream has pending, now (before it settles for another reason). */
  flush(): void;
}

/** Longest stretch of parsing before the event loop reads the sockets again (and stamps what came in). */
const SLICE_MS = 0.1;
/** Past this much unparsed data, chunks are parsed as they come: the queue must not grow without bound. */
const MAX_PENDING_BYTES = 16 * 1024 * 1024;

class Lane implements ArrivalLane {
  readonly items: Array<Uint8Array | null> = [];
  readonly times: number[] = [];
  next = 0;
  queued = false;

  constructor(
    private readonly queue: ArrivalQueue,
    readonly sink: ArrivalSink,
  ) {}

  push(item: Uint8Array | null, tMs: number): void {
    this.queue.enqueue(this, item, tMs);
  }

  flush(): void {
    while (this.next < this.items.length) this.queue.handleOne(this);
  }
}

/**
 * Arrival time first, parsing later. When hundreds of streams' chunks land in one turn of the event
 * loop, each socket's chunk is stamped as it is read, and parsing (SSE, JSON) waits until every
 * ready socket has been read: had each chunk been parsed on arrival, the last socket read in a burst
 * would be stamped only after all the parsing before it. Parsing runs in slices of at most 0.1 ms,
 * with the sockets read (and stamped) between slices, so it never holds an arrival back for longer.
 */
export class ArrivalQueue {
  private readonly ready: Lane[] = [];
  private head = 0;
  private scheduled = false;
  private pendingBytes = 0;

  lane(sink: ArrivalSink): ArrivalLane {
    return new Lane(this, sink);
  }

  enqueue(lane: Lane, item: Uint8Array | null, tMs: number): void {
    if (item && this.pendingBytes + item.length > MAX_PENDING_BYTES) this.drain(Number.POSITIVE_INFINITY);
    lane.items.push(item);
    lane.times.push(tMs);
    if (item) this.pendingBytes += item.length;
    if (!lane.queued) {
      lane.queued = true;
      this.ready.push(lane);
    }
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.run);
    }
  }

  handleOne(lane: Lane): void {
    const index = lane.next++;
    const item = lane.items[index] ?? null;
    const tMs = lane.times[index] ?? 0;
    lane.items[index] = null;
    if (item) this.pendingBytes -= item.length;
    lane.sink.handle(item, tMs);
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
      const lane = this.ready[this.head] as Lane;
      while (lane.next < lane.items.length) {
        this.handleOne(lane);
        if (performance.now() > deadline) return;
      }
      // Empty: the lane leaves the ready list and comes back with its next arrival.
      lane.items.length = 0;
      lane.times.length = 0;
      lane.next = 0;
      lane.queued = false;
      this.head++;
    }
    this.ready.length = 0;
    this.head = 0;
  }
}

let shared: ArrivalQueue | null = null;

/** The process-wide queue: one per event loop, so one slice budget covers every stream. */
export function sharedArrivalQueue(): ArrivalQueue {
  shared ??= new ArrivalQueue();
  return shared;
}
