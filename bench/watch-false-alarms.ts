import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { DEFAULT_WATCH } from "../src/config/watch-settings-schema.js";
import { silentLogger } from "../src/logger.js";
import { localCommitRounds } from "../src/round/run-commit-round.js";
import { runWatch } from "../src/round/run-watch.js";
import type { WatchState } from "../src/watch/watch-state.js";
import { buildMainHistory } from "../harness/git/build-main-history.js";
import { watchedEngineFiles, writeWatchRound } from "../harness/sim-engine/watched-engine.js";
import { findFreePort } from "../src/engine/find-free-port.js";

/*
 * Figure 18: the watch's false alarms. An unchanged main (20 merges that touch only documentation) of
 * the reference engine, watched after each merge as the nightly workflow would: each look a real drift
 * round of main's head against the good commit (three runs, two scenarios, the process runtime's
 * worktrees), judged against the default bar (watch.maxDrift 0.97) and the state carried from one look
 * to the next. The goal is the issue's: no alarm in at least 19 of 20 looks. Each look is one more
 * test of the same hypothesis, so the rule must hold its error rate per look (a whole 95% interval
 * below the bar), and the fixed good commit keeps one look's noise from becoming the next look's base.
 * Also the drift round's time on this machine, where it went (from the card's time breakdown), for the
 * runner time a day of watching costs (docs/watching-main.md).
 */

export interface WatchFalseAlarmFigure {
  looks: number;
  alarms: number;
  /** Looks whose round scored nothing for some scenario. */
  failed: number;
  /** The drift rounds' wall time: median and slowest. */
  medianRoundMs: number;
  maxRoundMs: number;
  /** Of the median round: engine starts and stops, warm-up and benchmark, summed over both engines and every run. */
  startsMs: number;
  benchmarkMs: number;
}

export const FALSE_ALARM_GOAL = 1;
const LOOKS = Number(process.env.SPEEDGATE_BENCH_WATCH_LOOKS ?? 20);

export async function measureWatchFalseAlarms(log: (line: string) => void = () => {}): Promise<WatchFalseAlarmFigure> {
  const dir = await mkdtemp(join(tmpdir(), "speedgate-bench-watch-"));
  try {
    const merges = Array.from({ length: LOOKS }, (_, index) => ({
      title: `docs: note ${index + 1}`,
      files: { [`docs/note-${index + 1}.md`]: `note ${index + 1}\n` },
    }));
    const history = await buildMainHistory(await mkdtemp(join(dir, "repo-")), {
      initial: watchedEngineFiles({ decode: 1, chat: 1 }),
      merges,
    });
    const configPath = await writeWatchRound(await mkdtemp(join(dir, "config-")), { port: await findFreePort() });
    const runRound = localCommitRounds({
      configPath,
      repoDir: history.repo.dir,
      logger: silentLogger,
      signal: new AbortController().signal,
    });
    let state: WatchState | null = null;
    let alarms = 0;
    let failed = 0;
    const rounds: { ms: number; startsMs: number; benchmarkMs: number }[] = [];
    for (const merge of history.merges) {
      const base = state
        ? { good: state.good, from: "state" as const, because: "the state" }
        : { good: history.good, from: "given" as const, because: "bench" };
      const started = Date.now();
      const run = await runWatch({
        repoDir: history.repo.dir,
        head: merge.sha,
        base,
        state,
        watch: { ...DEFAULT_WATCH },
        bisect: false,
        runRound,
        logger: silentLogger,
        now: () => new Date(),
      });
      const ms = Date.now() - started;
      const spent = run.card?.timeSpent;
      const engines = spent ? [spent.baseline, spent.candidate] : [];
      rounds.push({
        ms,
        startsMs: engines.reduce((sum, engine) => sum + engine.startMs + engine.stopMs, 0),
        benchmarkMs: engines.reduce((sum, engine) => sum + engine.warmupMs + engine.benchmarkMs, 0),
      });
      if (run.judgement?.alarm || run.change) alarms++;
      if (run.judgement?.scenarios.some((entry) => entry.verdict === "none")) failed++;
      const scores = (run.judgement?.scenarios ?? []).map(
        (entry) => `${entry.name} ${entry.estimate?.score.toFixed(3) ?? "-"} ${entry.verdict}`,
      );
      log(`look ${merge.number}: ${(ms / 1000).toFixed(1)} s, ${scores.join(", ")}${run.judgement?.alarm ? " ALARM" : ""}`);
      state = run.state;
    }
    const sorted = [...rounds].sort((a, b) => a.ms - b.ms);
    const median = sorted[Math.floor(sorted.length / 2)] ?? { ms: 0, startsMs: 0, benchmarkMs: 0 };
    return {
      looks: rounds.length,
      alarms,
      failed,
      medianRoundMs: median.ms,
      maxRoundMs: sorted.at(-1)?.ms ?? 0,
      startsMs: median.startsMs,
      benchmarkMs: median.benchmarkMs,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function describeWatchFalseAlarms(figure: WatchFalseAlarmFigure): string {
  const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
  return (
    `${figure.alarms} alarm${figure.alarms === 1 ? "" : "s"} in ${figure.looks} looks (${figure.failed} scored nothing); ` +
    `a drift round ${s(figure.medianRoundMs)} median, ${s(figure.maxRoundMs)} slowest (of the median: engine starts and stops ` +
    `${s(figure.startsMs)}, warm-up and benchmark ${s(figure.benchmarkMs)})`
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const figure = await measureWatchFalseAlarms((line) => process.stderr.write(`${line}\n`));
  console.log(`watch false alarms: ${describeWatchFalseAlarms(figure)}; goal ≤ ${FALSE_ALARM_GOAL} in ${figure.looks}`);
}
