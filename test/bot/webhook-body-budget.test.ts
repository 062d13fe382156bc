import { describe, expect, it } from "vitest";
import { MIN_CHARGE, WebhookBodyBudget } from "../../bot/webhook-body-budget.js";

const KiB = 1024;
const LIMITS = {
  maxBytes: 400 * KiB,
  maxBufferedBytes: 1000 * KiB,
  reservedBytes: 200 * KiB,
  smallBodyBytes: 50 * KiB,
  maxPeerBufferedBytes: 500 * KiB,
  graceMs: 1_000,
};

function budgetAt(start = 0): { budget: WebhookBodyBudget; advance: (ms: number) => void; cut: string[]; admit: (name: string, peer: string, declared: number | null) => string } {
  let now = start;
  const budget = new WebhookBodyBudget(LIMITS, () => now);
  const cut: string[] = [];
  return {
    budget,
    cut,
    advance: (ms) => {
      now += ms;
    },
    admit: (name, peer, declared) => {
      const admission = budget.admit(peer, declared, () => cut.push(name));
      return "refused" in admission ? "refused" : admission.held.pool;
    },
  };
}

describe("WebhookBodyBudget", () => {
  it("charges a body its declared length, at least what a connection costs, and a chunked one the largest body", () => {
    const { budget, admit } = budgetAt();
    expect(admit("tiny", "a", 10)).toBe("reserve");
    expect(admit("chunked", "b", null)).toBe("shared");
    expect(budget.usage()).toEqual({ reserve: MIN_CHARGE, shared: LIMITS.maxBytes, bodies: 2 });
  });

  it("keeps the reserve for small bodies when large ones fill the shared pool", () => {
    const { admit } = budgetAt();
    expect(admit("l1", "a", 400 * KiB)).toBe("shared");
    expect(admit("l2", "b", 400 * KiB)).toBe("shared");
    // 800 KiB of the 800 KiB shared pool: a third large body does not fit, and nothing is old enough to cut.
    expect(admit("l3", "c", 400 * KiB)).toBe("refused");
    expect(admit("s1", "c", 1 * KiB)).toBe("reserve");
  });

  it("holds one peer to its share of the shared pool, cutting its own oldest body once past the grace", () => {
    const { admit, advance, cut } = budgetAt();
    expect(admit("a1", "a", 250 * KiB)).toBe("shared");
    expect(admit("a2", "a", 250 * KiB)).toBe("shared");
    expect(admit("a3", "a", 250 * KiB)).toBe("refused");
    // Another address still gets in: the pool has room, only a's share is full.
    expect(admit("b1", "b", 250 * KiB)).toBe("shared");
    advance(1_500);
    expect(admit("a4", "a", 250 * KiB)).toBe("shared");
    expect(cut).toEqual(["a1"]);
  });

  it("makes room from the peer holding the most, oldest first, and never cuts a complete body", () => {
    const { budget, admit, advance, cut } = budgetAt();
    expect(admit("a1", "a", 400 * KiB)).toBe("shared");
    const b = budget.admit("b", 200 * KiB, () => cut.push("b1"));
    expect(admit("c1", "c", 200 * KiB)).toBe("shared");
    advance(2_000);
    if ("held" in b) b.held.complete = true;
    // 800 KiB held; 200 more must go: a holds the most.
    expect(admit("d1", "d", 200 * KiB)).toBe("shared");
    expect(cut).toEqual(["a1"]);
  });

  it("lets a small body cut the oldest small bodies held open when the reserve is full, but not young ones", () => {
    const { budget, admit, advance, cut } = budgetAt();
    // The shared pool is full too, of young bodies, so the reserve is the only way in.
    expect(admit("l1", "a", 400 * KiB)).toBe("shared");
    expect(admit("l2", "b", 400 * KiB)).toBe("shared");
    for (let index = 0; index < 4; index++) expect(admit(`s${index}`, "a", 50 * KiB)).toBe("reserve");
    expect(admit("young", "github", 20 * KiB)).toBe("refused");
    advance(1_000);
    expect(admit("late", "github", 20 * KiB)).toBe("reserve");
    expect(cut.length).toBeGreaterThan(0);
    expect(cut.every((name) => name.startsWith("s"))).toBe(true);
    expect(budget.usage().reserve).toBeLessThanOrEqual(LIMITS.reservedBytes);
  });

  it("never holds more than the budget, whatever arrives", () => {
    const { budget, admit, advance } = budgetAt();
    const sizes = [10, 400 * KiB, 50 * KiB, null, 120 * KiB, 3 * KiB, 399 * KiB, 51 * KiB];
    for (let index = 0; index < 400; index++) {
      admit(`x${index}`, `p${index % 3}`, sizes[index % sizes.length] ?? 1);
      advance(index % 7 === 0 ? 600 : 10);
      const usage = budget.usage();
      expect(usage.reserve).toBeLessThanOrEqual(LIMITS.reservedBytes);
      expect(usage.reserve + usage.shared).toBeLessThanOrEqual(LIMITS.maxBufferedBytes);
    }
  });

  it("gives the room back on release", () => {
    const { budget } = budgetAt();
    const admission = budget.admit("a", 400 * KiB, () => undefined);
    expect(budget.usage().shared).toBe(400 * KiB);
    if ("held" in admission) budget.release(admission.held);
    expect(budget.usage()).toEqual({ reserve: 0, shared: 0, bodies: 0 });
  });
});
