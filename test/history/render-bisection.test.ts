import { describe, expect, it } from "vitest";
import { describeChange, describeEstimate, describeInterval, renderBisection } from "../../src/history/render-bisection.js";
import type { RoundEstimate } from "../../src/scoring/pool-round-estimates.js";
import { type BisectionSetup, type StepRecord, planBisection } from "../../src/watch/plan-bisection.js";

/*
 * The bisection report people read (the tracking issue, bisection.md, the job summary): the outcome in
 * its first lines, named by merge and pull request, and every step with its score, interval and verdict.
 */

const sha = (index: number): string => `c${index.toString(16).padStart(2, "0")}`.padEnd(40, "0");
const commits = (n: number) =>
  Array.from({ length: n + 1 }, (_, index) => ({
    sha: sha(index),
    subject: index === 0 ? "the engine" : `Merge pull request #${index} from pr-${index}`,
    pullRequest: index === 0 ? null : { number: index, url: `https://github.com/o/engine/pull/${index}` },
  }));
const tight = (score: number): RoundEstimate => ({ score, interval: { low: score * 0.995, high: score * 1.005 } });

/** Runs the plan to its end against main's true levels, each round measuring the ratio exactly. */
function bisect(levels: readonly number[], wide: ReadonlySet<number> = new Set()) {
  const n = levels.length - 1;
  const setup: BisectionSetup = {
    commits: commits(n).map((commit) => commit.sha),
    drift: tight(levels[n] ?? 1),
    maxRepeats: 1,
    explainShare: 0.5,
    parallel: 1,
  };
  const records: StepRecord[] = [];
  let plan = planBisection(setup, records);
  while (!plan.outcome) {
    for (const step of plan.next) {
      const score = (levels[step.index] ?? 1) / (levels[step.purpose === "probe" ? 0 : step.index - 1] ?? 1);
      const estimate = wide.has(step.index) ? { score, interval: { low: score * 0.9, high: score * 1.1 } } : tight(score);
      records.push({ purpose: step.purpose, index: step.index, attempt: step.attempt, estimate });
    }
    plan = planBisection(setup, records);
  }
  return { setup, plan };
}

describe("renderBisection", () => {
  it("names the single merge by its pull request, with its share of the drift, and lists every step", () => {
    const levels = Array.from({ length: 17 }, (_, index) => (index >= 11 ? 0.92 : 1));
    const { setup, plan } = bisect(levels);
    const markdown = renderBisection({
      scenario: "decode",
      commits: commits(16),
      drift: setup.drift,
      plan,
      trigger: "The drift round",
      maxDrift: 0.97,
      runs: new Map([["probe-8-1", { url: "https://github.com/o/engine/actions/runs/7", runner: "gpu-runner-3" }]]),
    });
    expect(markdown).toContain("## speedgate: decode 8.0% slower on main");
    expect(markdown).toContain("16 merges apart");
    expect(markdown).toContain("(the watch's bar: 0.97×)");
    expect(markdown).toContain("**Found: #11 `");
    expect(markdown).toContain("(merge 11 of 16 in the range)");
    expect(markdown).toMatch(/decode 8\.0% slower \[7\.\d%, 8\.\d%\] against its parent, 100% of the drift/);
    // Every step in a row: probes 8, 12, 10, 11 and the parent round, with the runner and run of the one that has them.
    const rows = markdown.split("\n").filter((line) => /^\| \[?(probe|parent)/.test(line));
    expect(rows).toHaveLength(5);
    expect(rows[0]).toContain("[probe 8](https://github.com/o/engine/actions/runs/7)");
    expect(rows[0]).toContain("gpu-runner-3");
    expect(rows[0]).toContain("at the good level");
    expect(rows[1]).toContain("(#12)");
    expect(rows[1]).toContain("at the bad level");
    expect(rows[4]).toMatch(/parent of 11 .*its parent `c0a000000000` .*explains the drift/);
  });

  it("reports eight 1.5% merges as a gradual drift over the range, naming no merge as the cause", () => {
    const levels = Array.from({ length: 9 }, (_, index) => 0.985 ** index);
    const { setup, plan } = bisect(levels);
    expect(plan.outcome?.kind).toBe("gradual");
    const markdown = renderBisection({ scenario: "decode", commits: commits(8), drift: setup.drift, plan, trigger: "speedgate bisect" });
    expect(markdown).toContain("**Gradual drift: no single merge explains it.**");
    expect(markdown).toContain("decode got 11.4% slower over the 8 merges");
    expect(markdown).not.toContain("**Found");
  });

  it("reports a step that still straddles its bar after its repeats as a range, and says it does not guess", () => {
    // Merge 2 sits on the bar and its rounds are wide: it cannot be placed.
    const levels = [1, 1, Math.sqrt(0.9), 0.9, 0.9];
    const { setup, plan } = bisect(levels, new Set([2]));
    expect(plan.outcome).toMatchObject({ kind: "range", unresolved: 2 });
    const markdown = renderBisection({ scenario: null, commits: commits(4), drift: setup.drift, plan, trigger: "speedgate bisect" });
    expect(markdown).toContain("**Narrowed to a range, not to one merge:**");
    expect(markdown).toContain("still straddles the bar");
    expect(markdown).toContain("speedgate does not guess");
    expect(markdown).toContain("straddles the bar (2 rounds pooled)");
  });

  it("shows a bisection under way with the range left and the steps running", () => {
    const levels = Array.from({ length: 17 }, (_, index) => (index >= 11 ? 0.92 : 1));
    const setup: BisectionSetup = {
      commits: commits(16).map((c) => c.sha),
      drift: tight(0.92),
      maxRepeats: 1,
      explainShare: 0.5,
      parallel: 1,
    };
    const plan = planBisection(setup, [{ purpose: "probe", index: 8, attempt: 1, estimate: tight(levels[8] ?? 1) }]);
    const markdown = renderBisection({ scenario: "decode", commits: commits(16), drift: setup.drift, plan, trigger: "The drift round" });
    expect(markdown).toContain("**Bisecting:** the first bad commit is after `c08000000000` (#8)");
    expect(markdown).toContain("running probe-12-1");
  });

  it("escapes an engine's commit subject so a merge title cannot inject Markdown into the issue", () => {
    const levels = [1, 0.8];
    const { setup, plan } = bisect(levels);
    const markdown = renderBisection({
      scenario: "decode",
      commits: [
        { sha: sha(0), subject: "the engine" },
        { sha: sha(1), subject: "![x](https://evil.example/p.png) <img src=x>" },
      ],
      drift: setup.drift,
      plan,
      trigger: "speedgate bisect",
    });
    // The image syntax sits in a code span (shown, never loaded), the tag as text.
    expect(markdown).toContain("`![x](https://evil.example/p.png`");
    expect(markdown).not.toMatch(/[^`]!\[x\]\(https/);
    expect(markdown).not.toContain("<img");
  });

  it("words a change and its interval as a person reads them", () => {
    expect(describeChange(0.959)).toBe("4.1% slower");
    expect(describeChange(1.02)).toBe("2.0% faster");
    expect(describeChange(1.0001)).toBe("no change");
    expect(describeInterval({ low: 0.948, high: 0.971 })).toBe("[2.9%, 5.2%] slower");
    expect(describeInterval({ low: 0.98, high: 1.01 })).toBe("[0.980×, 1.010×]");
    expect(describeInterval(null)).toBe("no interval");
    expect(describeEstimate({ score: 0.959, interval: { low: 0.948, high: 0.971 } })).toBe("4.1% slower [2.9%, 5.2%]");
    expect(describeEstimate({ score: 0.995, interval: { low: 0.98, high: 1.01 } })).toBe("0.5% slower [0.980×, 1.010×]");
  });
});
