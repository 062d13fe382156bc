/*
 * What webhook bodies still arriving may hold in memory, and who gives way when a new one does not fit.
 * Nobody is authenticated yet: the signature covers the whole body, so it can only be checked once the
 * last byte is in. What can be bounded is what each connection, each peer and all of them hold, and
 * for how long. The rules, and why (docs/security-model.md, issue #24 point 1):
 *
 * - A body is charged its declared length (at least MIN_CHARGE, what a connection costs anyway) from
 *   the moment it is admitted until the app has answered it; a chunked body is charged the largest
 *   body allowed. So memory held for bodies never exceeds the budget, however slowly they arrive.
 * - Small bodies (GitHub's deliveries to this app are tens of kilobytes) have a reserve of their own
 *   that large ones never take: filling the shared pool with 25 MiB uploads does not keep a 1 KiB
 *   delivery out.
 * - Each peer address may hold at most `maxPeerBufferedBytes` of the shared pool, so one address
 *   cannot take it all. Behind one proxy (where GitHub and an attacker share an address) this is the
 *   same as the total bound, and the next rule is what keeps GitHub in.
 * - A body that does not fit makes room by cutting bodies that have been arriving for longer than
 *   `graceMs` and are still incomplete: GitHub sends a delivery in one go, in milliseconds, so a body
 *   still arriving after a second is being held open. In the shared pool the victims come from the
 *   peer holding the most (from the newcomer's own peer when it is over its share), oldest first.
 *   Complete bodies (being checked or handled) are never cut. When not enough can be cut, the newcomer
 *   is refused (503), and the app asks GitHub to send again any delivery it answered 5xx.
 */

export interface BodyBudgetLimits {
  /** Largest body (bytes); also what a chunked body is charged. */
  maxBytes: number;
  /** What all bodies may hold together (bytes), the reserve included. */
  maxBufferedBytes: number;
  /** Of `maxBufferedBytes`, kept for small bodies (bytes). */
  reservedBytes: number;
  /** A body declaring at most this many bytes is small. */
  smallBodyBytes: number;
  /** What one peer address may hold of the shared pool (bytes). */
  maxPeerBufferedBytes: number;
  /** A body still arriving after this long (ms) may be cut to make room. */
  graceMs: number;
}

/** A connection costs about this much (socket buffers, parser) whatever it declares. */
export const MIN_CHARGE = 16 * 1024;

type Pool = "reserve" | "shared";

export interface HeldBody {
  readonly peer: string;
  readonly charge: number;
  readonly pool: Pool;
  readonly since: number;
  /** Set once the last byte arrived: the body is then being checked or handled, and is never cut. */
  complete: boolean;
}

interface Entry extends HeldBody {
  cut: () => void;
}

export type Admission = { held: HeldBody; cut: number } | { refused: string };

export class WebhookBodyBudget {
  readonly #bodies = new Set<Entry>();

  constructor(
    private readonly limits: BodyBudgetLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** Bytes held per pool, for logs and tests. */
  usage(): { reserve: number; shared: number; bodies: number } {
    let reserve = 0;
    let shared = 0;
    for (const body of this.#bodies) {
      if (body.pool === "reserve") reserve += body.charge;
      else shared += body.charge;
    }
    return { reserve, shared, bodies: this.#bodies.size };
  }

  /**
   * Admits a body declaring `declared` bytes (null: chunked) from `peer`, cutting older incomplete
   * bodies when it must; `cut` is how this body is ended if a later one needs its room.
   */
  admit(peer: string, declared: number | null, cut: () => void): Admission {
    const charge = Math.max(MIN_CHARGE, declared ?? this.limits.maxBytes);
    const small = declared !== null && declared <= this.limits.smallBodyBytes;
    const now = this.now();
    if (small) {
      const reserveRoom = this.limits.reservedBytes - this.#held("reserve");
      if (charge <= reserveRoom) return this.#take({ peer, charge, pool: "reserve", since: now, complete: false, cut }, []);
      if (this.#sharedVictims(peer, charge, now, false) !== null) return this.#take({ peer, charge, pool: "shared", since: now, complete: false, cut }, []);
      const victims = this.#victims("reserve", charge - reserveRoom, now, null);
      if (victims) return this.#take({ peer, charge, pool: "reserve", since: now, complete: false, cut }, victims);
    }
    const victims = this.#sharedVictims(peer, charge, now, true);
    if (victims) return this.#take({ peer, charge, pool: "shared", since: now, complete: false, cut }, victims);
    return { refused: "too many webhook bodies are being read at once; try again" };
  }

  release(held: HeldBody): void {
    this.#bodies.delete(held as Entry);
  }

  #take(entry: Entry, victims: Entry[]): Admission {
    for (const victim of victims) {
      this.#bodies.delete(victim);
      victim.cut();
    }
    this.#bodies.add(entry);
    return { held: entry, cut: victims.length };
  }

  #held(pool: Pool, peer?: string): number {
    let total = 0;
    for (const body of this.#bodies) if (body.pool === pool && (peer === undefined || body.peer === peer)) total += body.charge;
    return total;
  }

  /**
   * What must be cut for `charge` to fit the shared pool (an empty list: it fits as it is), or null
   * when it cannot be made to fit (or, without `mayCut`, when something would have to be cut).
   */
  #sharedVictims(peer: string, charge: number, now: number, mayCut: boolean): Entry[] | null {
    if (charge > this.limits.maxPeerBufferedBytes || charge > this.limits.maxBufferedBytes - this.limits.reservedBytes) return null;
    const peerOver = this.#held("shared", peer) + charge - this.limits.maxPeerBufferedBytes;
    const fromPeer = peerOver > 0 ? this.#victims("shared", peerOver, now, peer) : [];
    if (fromPeer === null) return null;
    const freed = fromPeer.reduce((sum, body) => sum + body.charge, 0);
    const totalOver = this.#held("shared") - freed + charge - (this.limits.maxBufferedBytes - this.limits.reservedBytes);
    const fromAll = totalOver > 0 ? this.#victims("shared", totalOver, now, null, new Set(fromPeer)) : [];
    if (fromAll === null) return null;
    const victims = [...fromPeer, ...fromAll];
    if (!mayCut && victims.length > 0) return null;
    return victims;
  }

  /**
   * Incomplete bodies of `pool` arriving for longer than the grace, enough to free `bytes`: from
   * `peer` only when given, else from whichever peer holds the most, each peer's oldest first. Null
   * when they are not enough.
   */
  #victims(pool: Pool, bytes: number, now: number, peer: string | null, taken: ReadonlySet<Entry> = new Set()): Entry[] | null {
    const candidates = [...this.#bodies]
      .filter((body) => body.pool === pool && !body.complete && now - body.since >= this.limits.graceMs && !taken.has(body) && (peer === null || body.peer === peer))
      .sort((a, b) => a.since - b.since);
    const heldByPeer = new Map<string, number>();
    for (const body of this.#bodies) if (body.pool === pool && !taken.has(body)) heldByPeer.set(body.peer, (heldByPeer.get(body.peer) ?? 0) + body.charge);
    const victims: Entry[] = [];
    let freed = 0;
    while (freed < bytes) {
      // The peer holding the most gives way first; within it, the body that has been arriving longest.
      let pick: Entry | undefined;
      for (const body of candidates) {
        if (victims.includes(body)) continue;
        if (!pick || (heldByPeer.get(body.peer) ?? 0) > (heldByPeer.get(pick.peer) ?? 0)) pick = body;
      }
      if (!pick) return null;
      victims.push(pick);
      freed += pick.charge;
      heldByPeer.set(pick.peer, (heldByPeer.get(pick.peer) ?? 0) - pick.charge);
    }
    return victims;
  }
}
