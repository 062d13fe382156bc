import { describe, expect, it } from "vitest";
import type { RoundEstimate } from "../../src/scoring/pool-round-estimates.js";
import { createSeededRandom } from "../../src/scoring/seeded-random.js";
import { type BisectionPlan, type StepRecord, planBisection, probeIndices } from "../../src/watch/plan-bisection.js";

/*
 * The bisection plan against main's two Done-when histories, simulated: 16 merges where merge 11 makes
 * the followed scenario 8% slower, and 8 merges each 1.5% slower. A round of `head` against `base`
 * measures the true ratio of their levels times a log-normal error (sd `noise`), with a 95% interval of
 * ±1.96·sd around its score: what a card's bootstrap interval gives for a round whose rounds spread by sd.
 */

const commits = (n: number): string[] => Array.from({ length: n + 1 }, (_, index) => index.toString(16).padStart(40, "0"));

function simulate(levels: readonly number[], noise: number, seed: number, parallel = 1) {
  const random = createSeededRandom(seed);
  const normal = (): number => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const measure = (base: number, head: number): RoundEstimate => {
    const score = ((levels[head] ?? 1) / (levels[base] ?? 1)) * Math.exp(noise * normal());
    return { score, interval: { low: score * Math.exp(-1.96 * noise), high: score * Math.exp(1.96 * noise) } };
  };
  const n = levels.length - 1;
  const setup = { commits: commits(n), drift: measure(0, n), maxRepeats: 2, explainShare: 0.5, parallel };
  const records: StepRecord[] = [];
  let plan: BisectionPlan = planBisection(setup, records);
  let rounds = 0;
  let waves = 0;
  while (!plan.outcome) {
    waves++;
    for (const step of plan.next) {
      rounds++;
      records.push({
        purpose: step.purpose,
        index: step.index,
        attempt: step.attempt,
        estimate: measure(step.purpose === "probe" ? 0 : step.index - 1, step.index),
      });
    }
    plan = planBisection(setup, records);
    if (rounds > 100) throw new Error("the bisection did not end");
  }
  return { plan, rounds, waves, outcome: plan.outcome };
}

/** main's level after each of 16 merges: merge 11 makes it 8% slower. */
const SINGLE = Array.from({ length: 17 }, (_, index) => (index >= 11 ? 0.92 : 1));
/** 8 merges, each 1.5% slower: about 11% in all. */
const GRADUAL = Array.from({ length: 9 }, (_, index) => 0.985 ** index);

describe("planBisection", () => {
  it("names merge 11 of 16 in ⌈log2 16⌉ + 1 rounds when the rounds are precise", () => {
    const { outcome, rounds, plan } = simulate(SINGLE, 0.005, 1);
    expect(outcome).toMatchObject({ kind: "single", firstBad: 11, parent: 10 });
    expect(rounds).toBe(5);
    expect(plan.steps.map((step) => [step.purpose, step.index, step.verdict])).toEqual([
      ["probe", 8, "good"],
      ["probe", 12, "bad"],
      ["probe", 10, "good"],
      ["probe", 11, "bad"],
      ["parent", 11, "explains"],
    ]);
  });

  it("names merge 11 within ⌈log2 16⌉ + 2 rounds in at least 95% of 400 bisections whose rounds spread by 1%", () => {
    let named = 0;
    let withinBudget = 0;
    for (let seed = 1; seed <= 400; seed++) {
      const { outcome, rounds } = simulate(SINGLE, 0.01, seed);
      if (outcome.kind === "single" && outcome.firstBad === 11) named++;
      if (rounds <= 6) withinBudget++;
    }
    expect(named).toBe(400);
    expect(withinBudget).toBeGreaterThanOrEqual(380);
  });

  it("with rounds that spread by 1.5% still names merge 11 in at least 95% of 400, and never another merge", () => {
    let named = 0;
    let wrong = 0;
    for (let seed = 1; seed <= 400; seed++) {
      const { outcome } = simulate(SINGLE, 0.015, seed);
      if (outcome.kind === "single" && outcome.firstBad === 11) named++;
      if (outcome.kind === "single" && outcome.firstBad !== 11) wrong++;
    }
    expect(named).toBeGreaterThanOrEqual(380);
    // A step that cannot tell ends the bisection as a range: it never moves on to a wrong merge.
    expect(wrong).toBe(0);
  });

  it("reports eight merges of 1.5% each as a gradual drift, never as one merge, in at least 95% of 400 bisections", () => {
    let gradual = 0;
    let single = 0;
    for (let seed = 1; seed <= 400; seed++) {
      const { outcome } = simulate(GRADUAL, 0.01, seed);
      if (outcome.kind === "gradual") gradual++;
      if (outcome.kind === "single") single++;
    }
    expect(gradual).toBeGreaterThanOrEqual(380);
    expect(single).toBe(0);
  });

  it("repeats a step that straddles its bar, pools its rounds, and reports a range when it still straddles", () => {
    // The bad commit is half as slow again as the probe: the probe sits on the bar (√0.9 ≈ 0.949) and cannot be placed.
    const levels = [1, 1, Math.sqrt(0.9), 0.9, 0.9];
    const setup = {
      commits: commits(4),
      drift: { score: 0.9, interval: { low: 0.89, high: 0.91 } },
      maxRepeats: 2,
      explainShare: 0.5,
      parallel: 1,
    };
    const wide = (score: number): RoundEstimate => ({ score, interval: { low: score * 0.9, high: score * 1.1 } });
    const records: StepRecord[] = [];
    let plan = planBisection(setup, records);
    expect(plan.next.map((step) => step.key)).toEqual(["probe-2-1"]);
    records.push({ purpose: "probe", index: 2, attempt: 1, estimate: wide(levels[2] ?? 1) });
    plan = planBisection(setup, records);
    expect(plan.next.map((step) => step.key)).toEqual(["probe-2-2"]);
    records.push({ purpose: "probe", index: 2, attempt: 2, estimate: wide(levels[2] ?? 1) });
    plan = planBisection(setup, records);
    expect(plan.next.map((step) => step.key)).toEqual(["probe-2-3"]);
    records.push({ purpose: "probe", index: 2, attempt: 3, estimate: wide(levels[2] ?? 1) });
    plan = planBisection(setup, records);
    expect(plan.next).toEqual([]);
    expect(plan.outcome).toEqual({ kind: "range", from: 0, to: 4, unresolved: 2, why: "straddles" });
    expect(plan.steps[0]).toMatchObject({ index: 2, attempts: 3, verdict: "unclear" });
  });

  it("calls a straddling step whose level lies wholly between the good and the bad one gradual, not a range", () => {
    const setup = {
      commits: commits(4),
      drift: { score: 0.88, interval: { low: 0.875, high: 0.885 } },
      maxRepeats: 0,
      explainShare: 0.5,
      parallel: 1,
    };
    const plan = planBisection(setup, [
      { purpose: "probe", index: 2, attempt: 1, estimate: { score: 0.94, interval: { low: 0.93, high: 0.95 } } },
    ]);
    expect(plan.outcome).toEqual({ kind: "gradual", evidence: "part-way-level", at: 2, from: 0, to: 4 });
  });

  it("uses the range round itself when the first bad commit's parent is the good commit", () => {
    const setup = {
      commits: commits(1),
      drift: { score: 0.9, interval: { low: 0.89, high: 0.91 } },
      maxRepeats: 2,
      explainShare: 0.5,
      parallel: 1,
    };
    expect(planBisection(setup, []).outcome).toMatchObject({ kind: "single", firstBad: 1, parent: 0 });
  });

  it("bisects nothing when the range round shows no slowdown", () => {
    const setup = {
      commits: commits(8),
      drift: { score: 0.99, interval: { low: 0.97, high: 1.01 } },
      maxRepeats: 2,
      explainShare: 0.5,
      parallel: 1,
    };
    expect(planBisection(setup, [])).toMatchObject({ next: [], outcome: { kind: "no-drift" } });
  });

  it("retries a step that scored nothing, then reports the range", () => {
    const setup = {
      commits: commits(4),
      drift: { score: 0.9, interval: { low: 0.89, high: 0.91 } },
      maxRepeats: 1,
      explainShare: 0.5,
      parallel: 1,
    };
    const failed: StepRecord[] = [{ purpose: "probe", index: 2, attempt: 1, estimate: null }];
    expect(planBisection(setup, failed).next.map((step) => step.key)).toEqual(["probe-2-2"]);
    expect(planBisection(setup, [...failed, { purpose: "probe", index: 2, attempt: 2, estimate: null }]).outcome).toEqual({
      kind: "range",
      from: 0,
      to: 4,
      unresolved: 2,
      why: "failed",
    });
  });

  it("probes several commits at once when several runners are free, and needs fewer waves", () => {
    expect(probeIndices(0, 16, 3)).toEqual([4, 8, 12]);
    expect(probeIndices(10, 12, 3)).toEqual([11]);
    const parallel = simulate(SINGLE, 0.005, 3, 3);
    expect(parallel.outcome).toMatchObject({ kind: "single", firstBad: 11 });
    expect(parallel.waves).toBeLessThan(simulate(SINGLE, 0.005, 3, 1).waves);
  });

  it("plans each step with the good commit as its base, and the parent round with the first bad commit's parent", () => {
    const setup = {
      commits: commits(2),
      drift: { score: 0.9, interval: { low: 0.89, high: 0.91 } },
      maxRepeats: 2,
      explainShare: 0.5,
      parallel: 1,
    };
    const first = planBisection(setup, []);
    expect(first.next).toEqual([{ key: "probe-1-1", purpose: "probe", index: 1, attempt: 1, base: commits(2)[0], head: commits(2)[1] }]);
    const after = planBisection(setup, [
      { purpose: "probe", index: 1, attempt: 1, estimate: { score: 1, interval: { low: 0.99, high: 1.01 } } },
    ]);
    expect(after.next).toEqual([{ key: "parent-2-1", purpose: "parent", index: 2, attempt: 1, base: commits(2)[1], head: commits(2)[2] }]);
  });
});
