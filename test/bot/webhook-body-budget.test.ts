import { describe, expect, it } from "vitest";
import { type HeldBody, MIN_CHARGE, STARVED_AFTER_MS, WebhookBodyBudget } from "../../bot/webhook-body-budget.js";

const KiB = 1024;
const LIMITS = {
  maxBytes: 400 * KiB,
  maxBufferedBytes: 1000 * KiB,
  reservedBytes: 200 * KiB,
  smallBodyBytes: 50 * KiB,
  maxPeerBufferedBytes: 500 * KiB,
  graceMs: 1_000,
  maxIncompleteBodies: 12,
  maxPeerIncompleteBodies: 6,
  minBytesPerSecond: 64 * KiB,
};

interface Harness {
  budget: WebhookBodyBudget;
  advance: (ms: number) => void;
  cut: string[];
  /** Admits a body and returns its pool, or "refused". */
  admit: (name: string, peer: string, declared: number | null) => string;
  /** Admits a body and charges `arrived` bytes of it at once; returns its pool, or "refused" (not admitted, or the bytes did not fit). */
  arrive: (name: string, peer: string, declared: number | null, arrived: number) => string;
  held: Map<string, HeldBody>;
}

function budgetAt(limits = LIMITS): Harness {
  let now = 0;
  const budget = new WebhookBodyBudget(limits, () => now);
  const cut: string[] = [];
  const held = new Map<string, HeldBody>();
  const admit = (name: string, peer: string, declared: number | null): string => {
    const admission = budget.admit(peer, declared, () => cut.push(name));
    if ("refused" in admission) return "refused";
    held.set(name, admission.held);
    return admission.held.pool;
  };
  return {
    budget,
    cut,
    held,
    advance: (ms) => {
      now += ms;
    },
    admit,
    arrive: (name, peer, declared, arrived) => {
      const pool = admit(name, peer, declared);
      const body = held.get(name);
      if (pool === "refused" || !body) return "refused";
      if (budget.charge(body, arrived)) return pool;
      // As the guard does: a body whose bytes do not fit is ended, and its room given back.
      budget.release(body);
      return "refused";
    },
  };
}

describe("WebhookBodyBudget", () => {
  it("charges a body what has arrived plus a connection's cost, not what it declares", () => {
    const { budget, admit, held } = budgetAt();
    expect(admit("tiny", "a", 10)).toBe("reserve");
    expect(admit("declares-a-lot", "b", 400 * KiB)).toBe("shared");
    expect(admit("chunked", "c", null)).toBe("shared");
    expect(budget.usage()).toEqual({ reserve: MIN_CHARGE, shared: 2 * MIN_CHARGE, bodies: 3, incomplete: 3 });
    const body = held.get("declares-a-lot");
    if (!body) throw new Error("not admitted");
    expect(budget.charge(body, 100 * KiB)).toBe(true);
    expect(budget.usage().shared).toBe(2 * MIN_CHARGE + 100 * KiB);
  });

  it("lets headers alone, however large the bodies they declare, take nothing from a delivery that arrives", () => {
    const { budget, admit, arrive } = budgetAt();
    // Four connections declaring the largest body each: declared, they would have filled the shared pool twice.
    for (let index = 0; index < 4; index++) expect(admit(`held${index}`, `p${index % 2}`, 400 * KiB)).toBe("shared");
    expect(arrive("delivery", "github", 30 * KiB, 30 * KiB)).toBe("reserve");
    expect(arrive("large delivery", "github", 300 * KiB, 300 * KiB)).toBe("shared");
    expect(budget.usage().shared).toBe(5 * MIN_CHARGE + 300 * KiB);
  });

  it("keeps the reserve for small bodies when large ones fill the shared pool", () => {
    const { arrive } = budgetAt();
    expect(arrive("l1", "a", 400 * KiB, 400 * KiB - MIN_CHARGE)).toBe("shared");
    expect(arrive("l2", "b", 400 * KiB, 400 * KiB - MIN_CHARGE)).toBe("shared");
    // 800 KiB of the 800 KiB shared pool: a third large body does not fit, and nothing is old enough to cut.
    expect(arrive("l3", "c", 400 * KiB, KiB)).toBe("refused");
    expect(arrive("s1", "c", KiB, KiB)).toBe("reserve");
  });

  it("holds one peer to its share of the shared pool, cutting its own oldest body once past the grace", () => {
    const { arrive, advance, cut } = budgetAt();
    expect(arrive("a1", "a", 250 * KiB, 200 * KiB)).toBe("shared");
    expect(arrive("a2", "a", 250 * KiB, 200 * KiB)).toBe("shared");
    expect(arrive("a3", "a", 250 * KiB, 200 * KiB)).toBe("refused");
    // Another address still gets in: the pool has room, only a's share is full.
    expect(arrive("b1", "b", 250 * KiB, 200 * KiB)).toBe("shared");
    advance(1_500);
    expect(arrive("a4", "a", 250 * KiB, 200 * KiB)).toBe("shared");
    expect(cut).toEqual(["a1"]);
  });

  it("makes room from the peer holding the most, oldest first, and never cuts a complete body", () => {
    const { budget, arrive, advance, cut, held } = budgetAt();
    expect(arrive("a1", "a", 400 * KiB, 384 * KiB)).toBe("shared");
    expect(arrive("b1", "b", 200 * KiB, 184 * KiB)).toBe("shared");
    expect(arrive("c1", "c", 200 * KiB, 184 * KiB)).toBe("shared");
    advance(2_000);
    const b1 = held.get("b1");
    if (b1) b1.complete = true;
    // 800 KiB held; 200 more must go: a holds the most.
    expect(arrive("d1", "d", 200 * KiB, 184 * KiB)).toBe("shared");
    expect(cut).toEqual(["a1"]);
    expect(budget.usage().shared).toBeLessThanOrEqual(LIMITS.maxBufferedBytes - LIMITS.reservedBytes);
  });

  it("cuts at once, without waiting out the grace, a body that has received almost nothing for its age", () => {
    const { arrive, admit, advance, cut, budget, held } = budgetAt({ ...LIMITS, maxIncompleteBodies: 4, maxPeerIncompleteBodies: 4 });
    // Two connections that sent headers only, and two bodies arriving at a fair pace.
    expect(admit("headers1", "attacker", 400 * KiB)).toBe("shared");
    expect(admit("headers2", "attacker", 400 * KiB)).toBe("shared");
    expect(admit("paced1", "other", 400 * KiB)).toBe("shared");
    expect(admit("paced2", "other", 400 * KiB)).toBe("shared");
    advance(STARVED_AFTER_MS);
    // What 100 ms asks at 64 KiB/s is 6.4 KiB: the paced bodies have had 10 KiB each, the attacker's nothing.
    for (const name of ["paced1", "paced2"]) {
      const body = held.get(name);
      if (!body) throw new Error(`${name} not admitted`);
      expect(budget.charge(body, 10 * KiB)).toBe(true);
    }
    // The count is full and nobody is past the grace: the starved go, the attacker's oldest first.
    expect(arrive("delivery1", "github", 2 * KiB, 2 * KiB)).toBe("reserve");
    expect(arrive("delivery2", "github", 2 * KiB, 2 * KiB)).toBe("reserve");
    expect(cut).toEqual(["headers1", "headers2"]);
    // The deliveries are still incomplete and young, the paced bodies fed: a newcomer is refused, nobody cut.
    expect(admit("late", "github", 2 * KiB)).toBe("refused");
    expect(cut).toHaveLength(2);
  });

  it("caps incomplete bodies per peer and in total", () => {
    const { admit, budget } = budgetAt();
    for (let index = 0; index < LIMITS.maxPeerIncompleteBodies; index++) expect(admit(`a${index}`, "a", 10 * KiB)).not.toBe("refused");
    expect(admit("a-over", "a", 10 * KiB)).toBe("refused");
    for (let index = 0; index < LIMITS.maxIncompleteBodies - LIMITS.maxPeerIncompleteBodies; index++)
      expect(admit(`b${index}`, `b${index}`, 10 * KiB)).not.toBe("refused");
    expect(admit("c-over", "c", 10 * KiB)).toBe("refused");
    expect(budget.usage().incomplete).toBe(LIMITS.maxIncompleteBodies);
  });

  it("lets a small body cut the oldest small bodies held open when the reserve is full, but not young ones", () => {
    const { budget, arrive, advance, cut } = budgetAt();
    // The shared pool is full too, of young bodies, so the reserve is the only way in.
    expect(arrive("l1", "a", 400 * KiB, 384 * KiB)).toBe("shared");
    expect(arrive("l2", "b", 400 * KiB, 384 * KiB)).toBe("shared");
    for (let index = 0; index < 4; index++) expect(arrive(`s${index}`, "a", 50 * KiB, 34 * KiB)).toBe("reserve");
    expect(arrive("young", "github", 20 * KiB, 20 * KiB)).toBe("refused");
    advance(1_000);
    expect(arrive("late", "github", 20 * KiB, 20 * KiB)).toBe("reserve");
    expect(cut.length).toBeGreaterThan(0);
    expect(cut.every((name) => name.startsWith("s") || name === "young")).toBe(true);
    expect(budget.usage().reserve).toBeLessThanOrEqual(LIMITS.reservedBytes);
  });

  it("never holds more than the budget, whatever arrives", () => {
    const { budget, arrive, advance } = budgetAt();
    const sizes = [10, 400 * KiB, 50 * KiB, null, 120 * KiB, 3 * KiB, 399 * KiB, 51 * KiB];
    for (let index = 0; index < 400; index++) {
      const declared = sizes[index % sizes.length] ?? 1;
      arrive(`x${index}`, `p${index % 3}`, declared, index % 5 === 0 ? 0 : Math.min(declared ?? LIMITS.maxBytes, 90 * KiB));
      advance(index % 7 === 0 ? 600 : 10);
      const usage = budget.usage();
      expect(usage.reserve).toBeLessThanOrEqual(LIMITS.reservedBytes);
      expect(usage.reserve + usage.shared).toBeLessThanOrEqual(LIMITS.maxBufferedBytes);
      expect(usage.incomplete).toBeLessThanOrEqual(LIMITS.maxIncompleteBodies);
    }
    const peak = budget.peak();
    expect(peak.reserve).toBeLessThanOrEqual(LIMITS.reservedBytes);
    expect(peak.shared).toBeLessThanOrEqual(LIMITS.maxBufferedBytes - LIMITS.reservedBytes);
  });

  it("gives the room back on release", () => {
    const { budget } = budgetAt();
    const admission = budget.admit("a", 400 * KiB, () => undefined);
    if (!("held" in admission)) throw new Error("refused");
    expect(budget.charge(admission.held, 100 * KiB)).toBe(true);
    expect(budget.usage().shared).toBe(MIN_CHARGE + 100 * KiB);
    budget.release(admission.held);
    expect(budget.usage()).toEqual({ reserve: 0, shared: 0, bodies: 0, incomplete: 0 });
  });
});
