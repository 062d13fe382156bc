/*
 * What webhook bodies still arriving may hold in memory, and who gives way when a new one does not fit.
 * Nobody is authenticated yet: the signature covers the whole body, so it can only be checked once the
 * last byte is in. What can be bounded is what each connection, each peer and all of them hold, and
 * for how long. The rules, and why (docs/security-model.md):
 *
 * - A body is charged what has arrived of it, plus MIN_CHARGE for its connection (socket buffers,
 *   parser), from the moment it is admitted until the app has answered it. Charging what it declared
 *   let headers alone, no body byte sent, hold the whole budget: 20 connections declaring 1 to 25 MiB
 *   each locked signed deliveries out. Each chunk is charged before it is kept, so memory held for
 *   bodies never exceeds the budget.
 * - Incomplete bodies are capped in number, per peer address and in total: connections cost memory
 *   and file descriptors whatever they send.
 * - Small bodies (GitHub's deliveries to this app are tens of kilobytes) have a reserve of their own
 *   that large ones never take: filling the shared pool with 25 MiB uploads does not keep a 1 KiB
 *   delivery out.
 * - Each peer address may hold at most `maxPeerBufferedBytes` of the shared pool, so one address
 *   cannot take it all. Behind one proxy (where GitHub and an attacker share an address) this is the
 *   same as the total bound, and the next rules are what keep GitHub in.
 * - When a body or a chunk does not fit, room is made by cutting incomplete bodies: first those that
 *   have received almost nothing for their age (under `minBytesPerSecond`, once STARVED_AFTER_MS old),
 *   at once, whatever the grace: GitHub sends a delivery's headers and body together, so a connection
 *   that sent headers and little else is being held open; then those still arriving after `graceMs`.
 *   Victims come from the peer holding the most (from the newcomer's own peer when it is over its
 *   share), oldest first. Complete bodies (being checked or handled) are never cut. When not enough
 *   can be cut, the newcomer is refused (503), and the app asks GitHub to send again any delivery it
 *   answered 5xx.
 */

export interface BodyBudgetLimits {
  /** Largest body (bytes). */
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
  /** Incomplete bodies held at once, all peers together. */
  maxIncompleteBodies: number;
  /** Incomplete bodies one peer address may hold at once. */
  maxPeerIncompleteBodies: number;
  /** A body that has received less than this for its age (bytes a second) may be cut at once to make room. */
  minBytesPerSecond: number;
}

/** A connection costs about this much (socket buffers, parser) whatever it sends. */
export const MIN_CHARGE = 16 * 1024;
/**
 * A body younger than this is never judged starved: its first chunk may still be on its way through
 * the event loop (headers and body arrive together, but are read in turns of the loop).
 */
export const STARVED_AFTER_MS = 100;

type Pool = "reserve" | "shared";

export interface HeldBody {
  readonly peer: string;
  readonly pool: Pool;
  readonly since: number;
  /** What the body is charged now: MIN_CHARGE plus what has arrived. */
  readonly charge: number;
  /** Bytes of the body that arrived so far. */
  readonly received: number;
  /** Set once the last byte arrived: the body is then being checked or handled, and is never cut. */
  complete: boolean;
}

interface Entry extends HeldBody {
  pool: Pool;
  charge: number;
  received: number;
  cut: () => void;
}

export type Admission = { held: HeldBody; cut: number } | { refused: string };

export interface BudgetUsage {
  reserve: number;
  shared: number;
  bodies: number;
  incomplete: number;
}

const REFUSED = "too many webhook bodies are being read at once; try again";

export class WebhookBodyBudget {
  readonly #bodies = new Set<Entry>();
  #peak: BudgetUsage = { reserve: 0, shared: 0, bodies: 0, incomplete: 0 };

  constructor(
    private readonly limits: BodyBudgetLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** Bytes held per pool and bodies held, for logs and tests. */
  usage(): BudgetUsage {
    let reserve = 0;
    let shared = 0;
    let incomplete = 0;
    for (const body of this.#bodies) {
      if (body.pool === "reserve") reserve += body.charge;
      else shared += body.charge;
      if (!body.complete) incomplete++;
    }
    return { reserve, shared, bodies: this.#bodies.size, incomplete };
  }

  /** The most each figure of usage() has been since the budget was made (each on its own). */
  peak(): BudgetUsage {
    return { ...this.#peak };
  }

  /**
   * Admits a body declaring `declared` bytes (null: chunked) from `peer`, charged MIN_CHARGE until
   * bytes arrive, cutting incomplete bodies when it must; `cut` is how this body is ended if a later
   * one needs its room.
   */
  admit(peer: string, declared: number | null, cut: () => void): Admission {
    const now = this.now();
    const victims: Entry[] = [];
    const incomplete = [...this.#bodies].filter((body) => !body.complete);
    // Over the count caps: one body of the peer (its own cap), then one of anyone's (the total), makes room.
    if (incomplete.filter((body) => body.peer === peer).length >= this.limits.maxPeerIncompleteBodies) {
      const victim = this.#pickVictim(
        incomplete.filter((body) => body.peer === peer),
        now,
        "count",
      );
      if (!victim) return { refused: REFUSED };
      victims.push(victim);
    }
    if (incomplete.length - victims.length >= this.limits.maxIncompleteBodies) {
      const victim = this.#pickVictim(
        incomplete.filter((body) => !victims.includes(body)),
        now,
        "count",
      );
      if (!victim) return { refused: REFUSED };
      victims.push(victim);
    }
    const small = declared !== null && declared <= this.limits.smallBodyBytes;
    const entry: Entry = { peer, pool: small ? "reserve" : "shared", since: now, charge: 0, received: 0, complete: false, cut };
    let room = this.#room(entry, MIN_CHARGE, now, new Set(victims));
    if (!room && small) {
      // The reserve is full of young bodies: a small one may take the shared pool's room instead.
      entry.pool = "shared";
      room = this.#room(entry, MIN_CHARGE, now, new Set(victims));
    }
    if (!room) return { refused: REFUSED };
    victims.push(...room);
    this.#cut(victims);
    entry.charge = MIN_CHARGE;
    this.#bodies.add(entry);
    this.#notePeak();
    return { held: entry, cut: victims.length };
  }

  /**
   * Charges `bytes` more that arrived for `held`, cutting other incomplete bodies when they do not
   * fit. False when room could not be made: the caller ends this body (and keeps none of the bytes).
   */
  charge(held: HeldBody, bytes: number): boolean {
    const entry = held as Entry;
    if (!this.#bodies.has(entry)) return false;
    const room = this.#room(entry, bytes, this.now(), new Set());
    if (!room) return false;
    this.#cut(room);
    entry.charge += bytes;
    entry.received += bytes;
    this.#notePeak();
    return true;
  }

  release(held: HeldBody): void {
    this.#bodies.delete(held as Entry);
  }

  #cut(victims: readonly Entry[]): void {
    for (const victim of victims) {
      this.#bodies.delete(victim);
      victim.cut();
    }
  }

  #notePeak(): void {
    const usage = this.usage();
    this.#peak = {
      reserve: Math.max(this.#peak.reserve, usage.reserve),
      shared: Math.max(this.#peak.shared, usage.shared),
      bodies: Math.max(this.#peak.bodies, usage.bodies),
      incomplete: Math.max(this.#peak.incomplete, usage.incomplete),
    };
  }

  #held(pool: Pool, taken: ReadonlySet<Entry>, peer?: string): number {
    let total = 0;
    for (const body of this.#bodies)
      if (body.pool === pool && !taken.has(body) && (peer === undefined || body.peer === peer)) total += body.charge;
    return total;
  }

  /**
   * What must be cut (besides `taken`, already chosen) for `entry` to hold `bytes` more in its pool:
   * an empty list when it fits as it is, null when it cannot be made to fit.
   */
  #room(entry: Entry, bytes: number, now: number, taken: ReadonlySet<Entry>): Entry[] | null {
    const others = (body: Entry): boolean => body !== entry && !taken.has(body) && body.pool === entry.pool;
    const victims: Entry[] = [];
    const chosen = new Set(taken);
    if (entry.pool === "reserve") {
      const over = this.#held("reserve", chosen) + bytes - this.limits.reservedBytes;
      return this.#victimsFreeing(over, (body) => others(body), now, victims, chosen) ? victims : null;
    }
    const shared = this.limits.maxBufferedBytes - this.limits.reservedBytes;
    if (entry.charge + bytes > this.limits.maxPeerBufferedBytes || entry.charge + bytes > shared) return null;
    const peerOver = this.#held("shared", chosen, entry.peer) + bytes - this.limits.maxPeerBufferedBytes;
    if (!this.#victimsFreeing(peerOver, (body) => others(body) && body.peer === entry.peer, now, victims, chosen)) return null;
    const totalOver = this.#held("shared", chosen) + bytes - shared;
    if (!this.#victimsFreeing(totalOver, others, now, victims, chosen)) return null;
    return victims;
  }

  /** Adds victims among `eligible` bodies until `bytes` are freed; false when they are not enough. */
  #victimsFreeing(bytes: number, eligible: (body: Entry) => boolean, now: number, victims: Entry[], chosen: Set<Entry>): boolean {
    let freed = 0;
    while (freed < bytes) {
      const victim = this.#pickVictim(
        [...this.#bodies].filter((body) => eligible(body) && !chosen.has(body)),
        now,
        "bytes",
      );
      if (!victim) return false;
      victims.push(victim);
      chosen.add(victim);
      freed += victim.charge;
    }
    return true;
  }

  /**
   * The body that gives way among `candidates`: a starved one first (whatever its age past
   * STARVED_AFTER_MS), else one past the grace; from the peer holding the most (bytes when bytes are
   * short, bodies when the count is), oldest first. Undefined when none may be cut.
   */
  #pickVictim(candidates: readonly Entry[], now: number, short: "bytes" | "count"): Entry | undefined {
    const cuttable = candidates.filter((body) => !body.complete && (this.#starved(body, now) || now - body.since >= this.limits.graceMs));
    if (cuttable.length === 0) return undefined;
    const starved = cuttable.filter((body) => this.#starved(body, now));
    const pool = starved.length > 0 ? starved : cuttable;
    const holding = new Map<string, number>();
    for (const body of this.#bodies)
      if (!body.complete) holding.set(body.peer, (holding.get(body.peer) ?? 0) + (short === "bytes" ? body.charge : 1));
    let pick: Entry | undefined;
    for (const body of pool) {
      if (!pick) {
        pick = body;
        continue;
      }
      const more = (holding.get(body.peer) ?? 0) - (holding.get(pick.peer) ?? 0);
      if (more > 0 || (more === 0 && body.since < pick.since)) pick = body;
    }
    return pick;
  }

  #starved(body: Entry, now: number): boolean {
    const age = now - body.since;
    return !body.complete && age >= STARVED_AFTER_MS && body.received < (this.limits.minBytesPerSecond * age) / 1000;
  }
}
