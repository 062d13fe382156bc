import { type PooledEstimate, type RoundEstimate, poolRoundEstimates } from "../scoring/pool-round-estimates.js";
import { rangeOf } from "./judge-drift.js";

/*
 * Bisecting a drift of main (docs/watching-main.md, "How a bisection runs"). The range is main's
 * first-parent commits from the good one (index 0) to the bad one (index n); the range round measured
 * the bad one against the good one: the drift d of the followed scenario. Each step is a base/head
 * round of the good commit against a commit m inside the range (always the same base, so its cached
 * baseline image serves every step), and asks: is m still at the good level (1×) or already at the bad
 * one (d)? Its bar is halfway between them on the log scale, √d, the point that leaves the most room on
 * both sides. A step whose interval lies above the bar is good, below it bad; one that straddles it is
 * run again, up to maxRepeats more times, its rounds pooled (pool-round-estimates.ts); one still
 * straddling is never guessed: the bisection ends there.
 *
 * Once the range is one commit wide, the first bad commit is scored against its own parent. A single
 * merge explains the drift when that round's share of it, ln(score) / ln(d), is at least explainShare
 * with its whole interval; a drift whose first bad commit explains less (its whole interval below
 * explainShare) is gradual: no single merge made it. A step that straddles the bar and whose interval
 * lies wholly between the two levels (below 1× and above the range round's interval) proves the same
 * from the middle of the range: the speed fell both before and after it.
 *
 * The plan is a pure function of the setup and the rounds recorded so far, so the app can store only
 * the rounds and recompute what to dispatch next after a restart, and `speedgate bisect` runs the same
 * plan one round at a time.
 */

export interface BisectionSetup {
  /** Main's first-parent commits, the good one first and the bad one last (at least two). */
  commits: readonly string[];
  /** The range round: the bad commit against the good one, for the followed scenario. */
  drift: RoundEstimate;
  /** Rounds a straddling step gets after its first. */
  maxRepeats: number;
  /** The least share of the drift the first bad commit must explain against its parent to be named. */
  explainShare: number;
  /** Commits probed at once (the app, with several runners free); 1 halves the range each step. */
  parallel: number;
}

/** A probe scores a commit against the good one; a parent round scores the first bad commit against its own parent. */
export type StepPurpose = "probe" | "parent";

/** One round a bisection ran: which comparison, which attempt of it, and what it measured for the followed scenario. */
export interface StepRecord {
  purpose: StepPurpose;
  /** The head's index in `commits`. */
  index: number;
  attempt: number;
  /** Null when the round scored nothing for the followed scenario (an engine failed). */
  estimate: RoundEstimate | null;
}

/** A round to run: its head against its base, named by a key that is the same every time the plan asks for it. */
export interface PlannedStep {
  key: string;
  purpose: StepPurpose;
  index: number;
  attempt: number;
  base: string;
  head: string;
}

/**
 * - `good`/`bad`: a probe at or above the bar, or below it;
 * - `explains`/`partial`: a parent round whose share of the drift is at least explainShare, or below it;
 * - `unclear`: the interval straddles the bar (or the share limit);
 * - `failed`: the round scored nothing.
 */
export type StepVerdict = "good" | "bad" | "explains" | "partial" | "unclear" | "failed";

/** Every comparison the bisection made, its rounds pooled: what a tracking issue lists. */
export interface JudgedStep {
  purpose: StepPurpose;
  index: number;
  base: string;
  head: string;
  /** Rounds run of it. */
  attempts: number;
  pooled: PooledEstimate | null;
  verdict: StepVerdict;
  /** Of a parent round: the share of the drift it explains, with the share its interval allows. */
  share: { value: number; low: number; high: number } | null;
}

export type BisectionOutcome =
  /** One merge explains the drift: the first bad commit against its parent. */
  | { kind: "single"; firstBad: number; parent: number; share: { value: number; low: number; high: number } }
  /** No single merge explains it. `at` is the commit that shows it (the first bad commit, or a commit part-way). */
  | { kind: "gradual"; evidence: "first-bad-explains-little" | "part-way-level"; at: number; from: number; to: number }
  /** The bisection could not go on without guessing: the first bad commit lies in (from, to], `unresolved` straddled its bar. */
  | { kind: "range"; from: number; to: number; unresolved: number; why: "straddles" | "failed" | "share-straddles" }
  /** The range round itself shows no slowdown of the followed scenario: there is nothing to bisect. */
  | { kind: "no-drift" };

export interface BisectionPlan {
  /** The probes' bar: halfway between 1× and the drift, on the log scale. */
  bar: number;
  /** The range still searched: the last commit known good and the first known bad. */
  lo: number;
  hi: number;
  /** Rounds to run now (none once there is an outcome). */
  next: PlannedStep[];
  outcome: BisectionOutcome | null;
  steps: JudgedStep[];
}

/** The key a step's round is recorded and dispatched under: its purpose, its head's index and its attempt. */
export function stepKey(purpose: StepPurpose, index: number, attempt: number): string {
  return `${purpose}-${index}-${attempt}`;
}

export function parseStepKey(key: string): { purpose: StepPurpose; index: number; attempt: number } | null {
  const match = /^(probe|parent)-(\d+)-(\d+)$/.exec(key);
  if (!match?.[1] || !match[2] || !match[3]) return null;
  return { purpose: match[1] as StepPurpose, index: Number(match[2]), attempt: Number(match[3]) };
}

/** The commits a level of the search probes: one in the middle, or `parallel` spread evenly over the open range. */
export function probeIndices(lo: number, hi: number, parallel: number): number[] {
  const inside = hi - lo - 1;
  if (inside <= 0) return [];
  const count = Math.min(Math.max(1, parallel), inside);
  if (count === 1) return [Math.floor((lo + hi) / 2)];
  const indices = new Set<number>();
  for (let k = 1; k <= count; k++) indices.add(Math.min(hi - 1, Math.max(lo + 1, Math.round(lo + (k * (hi - lo)) / (count + 1)))));
  return [...indices].sort((a, b) => a - b);
}

/** ln(score) / ln(drift): how much of the drift a comparison shows, with the share its interval allows. */
function shareOf(pooled: PooledEstimate, drift: number): { value: number; low: number; high: number } {
  const total = Math.log(drift);
  const { low, high } = rangeOf(pooled);
  return { value: Math.log(pooled.score) / total, low: Math.log(high) / total, high: Math.log(low) / total };
}

interface Judged {
  pooled: PooledEstimate | null;
  attempts: number;
  verdict: StepVerdict;
  share: { value: number; low: number; high: number } | null;
}

export function planBisection(setup: BisectionSetup, records: readonly StepRecord[]): BisectionPlan {
  const { commits, drift } = setup;
  const n = commits.length - 1;
  if (n < 1) throw new Error("planBisection: the range needs the good and the bad commit");
  const commit = (index: number): string => commits[index] ?? "";
  const bar = Math.sqrt(Math.min(drift.score, 1));
  const driftRange = rangeOf(drift);
  const roundsOf = (purpose: StepPurpose, index: number): StepRecord[] =>
    records.filter((record) => record.purpose === purpose && record.index === index);
  const maxRounds = 1 + setup.maxRepeats;

  const judgeProbe = (index: number): Judged => {
    const rounds = roundsOf("probe", index);
    const pooled = poolRoundEstimates(rounds.flatMap((round) => (round.estimate ? [round.estimate] : [])));
    if (!pooled) return { pooled, attempts: rounds.length, verdict: "failed", share: null };
    const { low, high } = rangeOf(pooled);
    const verdict: StepVerdict = high < bar ? "bad" : low >= bar ? "good" : "unclear";
    return { pooled, attempts: rounds.length, verdict, share: drift.score < 1 ? shareOf(pooled, drift.score) : null };
  };
  const judgeParent = (rounds: readonly RoundEstimate[], attempts: number): Judged => {
    const pooled = poolRoundEstimates(rounds);
    if (!pooled) return { pooled, attempts, verdict: "failed", share: null };
    const share = shareOf(pooled, drift.score);
    const verdict: StepVerdict = share.low >= setup.explainShare ? "explains" : share.high < setup.explainShare ? "partial" : "unclear";
    return { pooled, attempts, verdict, share };
  };
  const planned = (purpose: StepPurpose, index: number, attempt: number, base: number): PlannedStep => ({
    key: stepKey(purpose, index, attempt),
    purpose,
    index,
    attempt,
    base: commit(base),
    head: commit(index),
  });
  const steps = judgeAll(setup, records, judgeProbe, judgeParent);
  const done = (lo: number, hi: number, outcome: BisectionOutcome): BisectionPlan => ({ bar, lo, hi, next: [], outcome, steps });

  if (driftRange.high >= 1) return done(0, n, { kind: "no-drift" });

  let lo = 0;
  let hi = n;
  while (hi - lo > 1) {
    const probes = probeIndices(lo, hi, setup.parallel).map((index) => ({ index, ...judgeProbe(index) }));
    const next = probes
      .filter(
        (probe) => probe.attempts === 0 || ((probe.verdict === "unclear" || probe.verdict === "failed") && probe.attempts < maxRounds),
      )
      .map((probe) => planned("probe", probe.index, probe.attempts + 1, 0));
    if (next.length > 0) return { bar, lo, hi, next, outcome: null, steps };
    // The first bad probe bounds the range above; the last good one below it bounds it below.
    const firstBad = probes.find((probe) => probe.verdict === "bad")?.index ?? hi;
    const lastGood = probes.filter((probe) => probe.index < firstBad && probe.verdict === "good").at(-1)?.index ?? lo;
    const stuck = probes.find((probe) => probe.index > lastGood && probe.index < firstBad);
    if (stuck) {
      if (stuck.verdict === "unclear" && stuck.pooled && isPartWay(stuck.pooled, driftRange.high)) {
        return done(lastGood, firstBad, { kind: "gradual", evidence: "part-way-level", at: stuck.index, from: 0, to: n });
      }
      return done(lastGood, firstBad, {
        kind: "range",
        from: lastGood,
        to: firstBad,
        unresolved: stuck.index,
        why: stuck.verdict === "failed" ? "failed" : "straddles",
      });
    }
    lo = lastGood;
    hi = firstBad;
  }

  // The first bad commit against its parent. When its parent is the good commit, the probe (or the range round) already is that round.
  const parent = hi - 1;
  let judged: Judged;
  if (parent === 0) {
    const probeRounds = roundsOf("probe", hi).flatMap((round) => (round.estimate ? [round.estimate] : []));
    judged = judgeParent(hi === n ? [drift, ...probeRounds] : probeRounds, Math.max(1, probeRounds.length));
  } else {
    const rounds = roundsOf("parent", hi);
    judged = judgeParent(
      rounds.flatMap((round) => (round.estimate ? [round.estimate] : [])),
      rounds.length,
    );
    if (rounds.length === 0 || ((judged.verdict === "unclear" || judged.verdict === "failed") && rounds.length < maxRounds)) {
      return { bar, lo, hi, next: [planned("parent", hi, rounds.length + 1, parent)], outcome: null, steps };
    }
  }
  if (judged.verdict === "explains" && judged.share) return done(lo, hi, { kind: "single", firstBad: hi, parent, share: judged.share });
  if (judged.verdict === "partial") return done(lo, hi, { kind: "gradual", evidence: "first-bad-explains-little", at: hi, from: 0, to: n });
  return done(lo, hi, {
    kind: "range",
    from: parent,
    to: hi,
    unresolved: hi,
    why: judged.verdict === "failed" ? "failed" : "share-straddles",
  });
}

/** A level neither the good one (1×) nor the bad one: the interval lies below 1× and above the range round's whole interval. */
function isPartWay(pooled: PooledEstimate, driftHigh: number): boolean {
  const { low, high } = rangeOf(pooled);
  return high < 1 && low > driftHigh;
}

/** Every comparison recorded, its rounds pooled and judged, in the order first run. */
function judgeAll(
  setup: BisectionSetup,
  records: readonly StepRecord[],
  judgeProbe: (index: number) => Judged,
  judgeParent: (rounds: readonly RoundEstimate[], attempts: number) => Judged,
): JudgedStep[] {
  const seen = new Set<string>();
  const steps: JudgedStep[] = [];
  for (const record of records) {
    const id = `${record.purpose}-${record.index}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const head = setup.commits[record.index] ?? "";
    if (record.purpose === "probe") {
      steps.push({ purpose: "probe", index: record.index, base: setup.commits[0] ?? "", head, ...judgeProbe(record.index) });
    } else {
      const rounds = records.filter((other) => other.purpose === "parent" && other.index === record.index);
      const judged = judgeParent(
        rounds.flatMap((round) => (round.estimate ? [round.estimate] : [])),
        rounds.length,
      );
      steps.push({ purpose: "parent", index: record.index, base: setup.commits[record.index - 1] ?? "", head, ...judged });
    }
  }
  return steps;
}
