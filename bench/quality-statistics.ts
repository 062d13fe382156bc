import { pathToFileURL } from "node:url";
import { DEFAULT_MAX_QUALITY_DROP } from "../src/scoring/judge-quality.js";
import { type QualityStudySetup, dropShareFor, studyQualityGate } from "../src/sim-engine/study-quality-gate.js";

/*
 * The quality rule's error rates (gate.quality, the default maxDrop of 2 points, McNemar p < 0.05) by
 * simulation over the reference engine's question model (src/sim-engine/sim-question-model.ts): 200
 * questions, accuracy 80% or 90%, a share of the questions at a near-tie (right or wrong by a draw in
 * every answer, as a batching engine's are), 4 runs unless said. Seeded: the same on every machine; a few
 * seconds on 2 cores.
 *   - unchanged: how often an unchanged candidate fails on quality (the goal: at most 5%);
 *   - a numerics change: other answers, the same accuracy (a share of the right answers exchanged with as many wrong ones);
 *   - a drop of N points: how often it is caught (the goal at 5 points and 200 questions: at least 80%).
 */

export interface QualityStatisticsRow {
  setup: string;
  /**
   * What the row promises: "false" (an unchanged or accuracy-neutral candidate fails at most 5%), "power" (a 5-point drop is caught in
   * at least 80%); null for a reference.
   */
  goal: "false" | "power" | null;
  failRate: number;
  meanTrueDrop: number;
}

interface Row {
  setup: string;
  goal: QualityStatisticsRow["goal"];
  study: QualityStudySetup;
}

const QUESTIONS = 200;

function rows(): Row[] {
  const engine = (accuracy: number, unsteady: number) => ({ accuracy, unsteady });
  const at = (
    setup: string,
    goal: Row["goal"],
    engineModel: { accuracy: number; unsteady: number },
    extra: Partial<QualityStudySetup>,
  ) => ({
    setup,
    goal,
    study: { questions: QUESTIONS, runs: 4, engine: engineModel, change: {}, maxDrop: DEFAULT_MAX_QUALITY_DROP, ...extra },
  });
  const drop = (points: number, engineModel: { accuracy: number; unsteady: number }) => ({
    change: { qualityDrop: dropShareFor(points, engineModel) },
  });
  return [
    at("unchanged, accuracy 80%, no question at a near-tie", "false", engine(0.8, 0), {}),
    at("unchanged, accuracy 80%, 5% of the questions at a near-tie", "false", engine(0.8, 0.05), {}),
    at("unchanged, accuracy 80%, 10% at a near-tie", "false", engine(0.8, 0.1), {}),
    at("unchanged, accuracy 90%, 5% at a near-tie", "false", engine(0.9, 0.05), {}),
    at("unchanged, accuracy 80%, 5% at a near-tie, 1 run", "false", engine(0.8, 0.05), { runs: 1 }),
    at("numerics change (5% of the right answers exchanged), accuracy 80%, 5% at a near-tie", "false", engine(0.8, 0.05), {
      change: { numericsChange: 0.05 },
    }),
    at("numerics change (10% exchanged), accuracy 80%, 10% at a near-tie", "false", engine(0.8, 0.1), {
      change: { numericsChange: 0.1 },
    }),
    at("a 5-point drop, accuracy 80%, no question at a near-tie", "power", engine(0.8, 0), drop(0.05, engine(0.8, 0))),
    at("a 5-point drop, accuracy 80%, 5% at a near-tie", "power", engine(0.8, 0.05), drop(0.05, engine(0.8, 0.05))),
    at("a 5-point drop, accuracy 90%, 5% at a near-tie", "power", engine(0.9, 0.05), drop(0.05, engine(0.9, 0.05))),
    at("a 5-point drop, accuracy 80%, 10% at a near-tie", null, engine(0.8, 0.1), drop(0.05, engine(0.8, 0.1))),
    at("a 5-point drop, accuracy 80%, 5% at a near-tie, 1 run", null, engine(0.8, 0.05), {
      runs: 1,
      ...drop(0.05, engine(0.8, 0.05)),
    }),
    at("a 5-point drop beside a numerics change (5% exchanged), accuracy 80%, 5% at a near-tie", null, engine(0.8, 0.05), {
      change: { numericsChange: 0.05, qualityDrop: dropShareFor(0.05, engine(0.8, 0.05)) },
    }),
    at("a 3-point drop, accuracy 80%, 5% at a near-tie", null, engine(0.8, 0.05), drop(0.03, engine(0.8, 0.05))),
    at("a 2-point drop, accuracy 80%, 5% at a near-tie", null, engine(0.8, 0.05), drop(0.02, engine(0.8, 0.05))),
  ];
}

export function measureQualityStatistics(options: { rounds?: number; log?: (line: string) => void } = {}): {
  rows: QualityStatisticsRow[];
  rounds: number;
  questions: number;
} {
  const rounds = options.rounds ?? 2000;
  const measured = rows().map(({ setup, goal, study }, index) => {
    const result = studyQualityGate(study, rounds, 1 + index * 1_000_000);
    const row = { setup, goal, failRate: result.failRate, meanTrueDrop: result.meanTrueDrop };
    options.log?.(`${setup}: fails ${(row.failRate * 100).toFixed(1)}% (true drop ${(row.meanTrueDrop * 100).toFixed(1)} points)`);
    return row;
  });
  return { rows: measured, rounds, questions: QUESTIONS };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const figure = measureQualityStatistics({ log: (line) => console.log(line) });
  console.log(`${figure.rounds} rounds per setup, ${figure.questions} questions`);
}
