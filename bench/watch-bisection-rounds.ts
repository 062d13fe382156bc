import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { DEFAULT_WATCH } from "../src/config/watch-settings-schema.js";
import { silentLogger } from "../src/logger.js";
import { type CommitRoundRunner, localCommitRounds } from "../src/round/run-commit-round.js";
import { runWatch } from "../src/round/run-watch.js";
import { buildMainHistory } from "../harness/git/build-main-history.js";
import { watchedEngineFiles, writeWatchRound } from "../harness/sim-engine/watched-engine.js";
import { findFreePort } from "../src/engine/find-free-port.js";

/*
 * Figure 25: a bisection of main with real rounds. Main's 16 merges of the reference engine, merge 11
 * making decode 8% slower (the issue's Done-when), or merges 5 to 12 each making it 1.5% slower; one
 * drift round of the head against the first commit at watch.maxDrift 0.98, then the
 * bisection `speedgate watch` runs on one machine (the plan the app follows, one step after another):
 * each round five runs of each engine, two scenarios, the process runtime's worktrees. What it costs
 * a runner is the rounds' wall time, every round on the one machine; the app with several runners free
 * probes in parallel and costs the same runner time in less wall time.
 */

export type BisectionCase = "8%" | "gradual";

export interface BisectionRun {
  case: BisectionCase;
  /** The outcome: "merge 11", "gradual", "range …", or "no alarm". */
  outcome: string;
  /** Whether the outcome is the right one: merge 11 named, or a gradual drift reported. */
  right: boolean;
  /** Rounds run, the drift round included. */
  rounds: number;
  /** Runs of each engine per round, for the followed scenario. */
  runsPerRound: number[];
  /** Decode's score in each round, in order. */
  scores: number[];
  /** Every round's wall time summed: what the bisection costs a runner. */
  wallMs: number;
  /** The 1-minute load average at the start and the end. */
  load: [number, number];
}

export interface BisectionFigure {
  runs: BisectionRun[];
}

/** Runs of each engine a round, as test/e2e/watch-main-process.test.ts runs them (why five there). */
const RUNS = 5;
/** watch.maxDrift as the end-to-end test sets it (why 0.98 there). */
const MAX_DRIFT = 0.98;
const EIGHT_PERCENT = Number(process.env.SPEEDGATE_BENCH_BISECTIONS ?? 3);
const GRADUAL = Number(process.env.SPEEDGATE_BENCH_GRADUAL_BISECTIONS ?? 1);

/** Decode's speed after each merge against the first commit. */
const LEVELS: Record<BisectionCase, (merge: number) => number> = {
  "8%": (merge) => (merge >= 11 ? 0.92 : 1),
  gradual: (merge) => 0.985 ** Math.max(0, Math.min(merge, 12) - 4),
};

async function bisectOnce(dir: string, kind: BisectionCase): Promise<BisectionRun> {
  const level = LEVELS[kind];
  const merges = Array.from({ length: 16 }, (_, index) => {
    const number = index + 1;
    const changed = level(number) !== (number === 1 ? 1 : level(number - 1));
    return changed
      ? { title: `scheduler: decode path ${number}`, files: watchedEngineFiles({ decode: level(number), chat: 1 }) }
      : { title: `docs: note ${number}`, files: { [`docs/note-${number}.md`]: `note ${number}\n` } };
  });
  const history = await buildMainHistory(await mkdtemp(join(dir, "repo-")), {
    initial: watchedEngineFiles({ decode: 1, chat: 1 }),
    merges,
  });
  const configPath = await writeWatchRound(await mkdtemp(join(dir, "config-")), { port: await findFreePort(), runs: RUNS });
  const rounds = localCommitRounds({ configPath, repoDir: history.repo.dir, logger: silentLogger, signal: new AbortController().signal });
  const runsPerRound: number[] = [];
  const scores: number[] = [];
  let wallMs = 0;
  const runRound: CommitRoundRunner = async (request) => {
    const started = performance.now();
    const card = await rounds(request);
    wallMs += performance.now() - started;
    const decode = card.scenarios?.find((scenario) => scenario.name === "decode")?.card;
    runsPerRound.push(decode?.runs.completed ?? 0);
    scores.push(decode?.roundScore ?? Number.NaN);
    return card;
  };
  const loadBefore = loadavg()[0] ?? 0;
  const head = history.merges.at(-1)?.sha ?? "";
  const run = await runWatch({
    repoDir: history.repo.dir,
    head,
    base: { good: history.good, from: "given", because: "bench" },
    state: null,
    watch: { ...DEFAULT_WATCH, maxDrift: MAX_DRIFT },
    bisect: true,
    runRound,
    logger: silentLogger,
    now: () => new Date(),
  });
  const outcome = run.bisection?.plan.outcome;
  const described =
    outcome === null || outcome === undefined
      ? "no alarm"
      : outcome.kind === "single"
        ? `merge ${outcome.firstBad}`
        : outcome.kind === "range"
          ? `range ${outcome.from}..${outcome.to} (${outcome.why})`
          : outcome.kind;
  const right = kind === "8%" ? outcome?.kind === "single" && outcome.firstBad === 11 : outcome?.kind === "gradual";
  return {
    case: kind,
    outcome: described,
    right,
    rounds: scores.length,
    runsPerRound,
    scores,
    wallMs,
    load: [loadBefore, loadavg()[0] ?? 0],
  };
}

export async function measureWatchBisections(log: (line: string) => void = () => {}): Promise<BisectionFigure> {
  const dir = await mkdtemp(join(tmpdir(), "speedgate-bench-bisect-"));
  try {
    const runs: BisectionRun[] = [];
    const cases: BisectionCase[] = [...Array<BisectionCase>(EIGHT_PERCENT).fill("8%"), ...Array<BisectionCase>(GRADUAL).fill("gradual")];
    for (const kind of cases) {
      const run = await bisectOnce(dir, kind);
      log(
        `${run.case}: ${run.outcome} in ${run.rounds} rounds (${run.runsPerRound.join(", ")} runs), ${(run.wallMs / 1000).toFixed(0)} s, ` +
          `decode ${run.scores.map((score) => score.toFixed(3)).join(" ")}, load ${run.load.map((value) => value.toFixed(1)).join(" → ")}`,
      );
      runs.push(run);
    }
    return { runs };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The figure's measured cell for one case: right outcomes, rounds, runs per round and runner time. */
export function describeWatchBisections(figure: BisectionFigure, kind: BisectionCase): string {
  const runs = figure.runs.filter((run) => run.case === kind);
  if (runs.length === 0) return "not measured";
  const right = runs.filter((run) => run.right).length;
  const rounds = runs.map((run) => run.rounds);
  const perRound = [...new Set(runs.flatMap((run) => run.runsPerRound))].sort((a, b) => a - b);
  const wall = runs.map((run) => run.wallMs / 1000);
  const loads = runs.flatMap((run) => run.load);
  return (
    `${right} of ${runs.length} ${kind === "8%" ? "named merge 11" : "reported gradual"} (${runs.map((run) => run.outcome).join("; ")}); ` +
    `${Math.min(...rounds)}–${Math.max(...rounds)} rounds with the drift round, ${perRound.join(" or ")} runs each; ` +
    `runner time ${Math.min(...wall).toFixed(0)}–${Math.max(...wall).toFixed(0)} s a bisection ` +
    `(load ${Math.min(...loads).toFixed(1)} to ${Math.max(...loads).toFixed(1)})`
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const figure = await measureWatchBisections((line) => process.stderr.write(`${line}\n`));
  console.log(`watch bisection, 8%: ${describeWatchBisections(figure, "8%")}`);
  console.log(`watch bisection, gradual: ${describeWatchBisections(figure, "gradual")}`);
}
