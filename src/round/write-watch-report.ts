import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { renderBisection } from "../history/render-bisection.js";
import { stepKey } from "../watch/plan-bisection.js";
import type { WatchState } from "../watch/watch-state.js";
import type { LocalBisection } from "./run-bisection.js";
import type { WatchRun } from "./run-watch.js";
import { writeAtomically, writeScorecard } from "./write-scorecard.js";

/** The bisection as bisection.md (what people read) and bisection.json (every step, for scripts), and each step's card under steps/. */
export async function writeBisectionReport(
  dir: string,
  bisection: LocalBisection,
  trigger: string,
  maxDrift: number | null,
): Promise<{ markdownPath: string; jsonPath: string; markdown: string }> {
  await mkdir(dir, { recursive: true });
  for (const [key, card] of bisection.cards) await writeScorecard(join(dir, "steps", key), card);
  const markdown = renderBisection({
    scenario: bisection.scenario,
    commits: bisection.commits.map((commit) => ({ sha: commit.sha, subject: commit.subject })),
    drift: bisection.setup.drift,
    plan: bisection.plan,
    trigger,
    maxDrift,
  });
  const json = {
    good: bisection.commits[0]?.sha ?? null,
    bad: bisection.commits.at(-1)?.sha ?? null,
    scenario: bisection.scenario,
    commits: bisection.commits,
    drift: bisection.setup.drift,
    bar: bisection.plan.bar,
    outcome: bisection.plan.outcome,
    steps: bisection.plan.steps,
    rounds: bisection.records.map((record) => {
      const key = stepKey(record.purpose, record.index, record.attempt);
      return { key, ...record, card: join("steps", key, "scorecard.json") };
    }),
  };
  const markdownPath = join(dir, "bisection.md");
  const jsonPath = join(dir, "bisection.json");
  await writeAtomically(markdownPath, markdown);
  await writeAtomically(jsonPath, `${JSON.stringify(json, null, 2)}\n`);
  return { markdownPath, jsonPath, markdown };
}

/** What a watch run leaves in its folder: the drift round's card, watch.json (the verdict and the next state), and the bisection. */
export async function writeWatchReport(
  outDir: string,
  run: WatchRun,
  maxDrift: number,
): Promise<{ watchPath: string; cardPaths: { jsonPath: string; markdownPath: string } | null; bisection: { markdown: string } | null }> {
  await mkdir(outDir, { recursive: true });
  const cardPaths = run.card ? await writeScorecard(outDir, run.card) : null;
  const bisection = run.bisection
    ? await writeBisectionReport(
        join(outDir, "bisection"),
        run.bisection,
        run.change ? "A change point in the watch's series" : "The drift round",
        run.change ? null : maxDrift,
      )
    : null;
  const watchPath = join(outDir, "watch.json");
  const report = {
    good: run.base.good,
    goodFrom: run.base.from,
    goodBecause: run.base.because,
    head: run.head,
    maxDrift,
    alarm: run.judgement?.alarm ?? false,
    failed: run.judgement?.failed ?? false,
    scenarios: run.judgement?.scenarios ?? [],
    change: run.change,
    bisection: run.bisection?.plan.outcome ?? null,
    state: run.state satisfies WatchState,
  };
  await writeAtomically(watchPath, `${JSON.stringify(report, null, 2)}\n`);
  return { watchPath, cardPaths, bisection };
}
