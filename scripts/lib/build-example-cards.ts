import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { DEFAULT_RUN_BUDGET } from "../../src/scoring/sequential-design.js";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadRound, parseRoundConfig } from "../../src/config/load-round-config.js";
import { mostRuns } from "../../src/config/run-plan.js";
import { applyPatch } from "../../src/engine/apply-patch.js";
import type { RoundConfig } from "../../src/config/round-config-schema.js";
import { classifyFailure } from "../../src/failure/classify-failure.js";
import type { EngineFailure } from "../../src/vocabulary/engine-failure.js";
import type { EngineExit } from "../../src/vocabulary/engine-exit.js";
import type { EngineFamily } from "../../src/vocabulary/engine-family.js";
import type { GpuSnapshot } from "../../src/vocabulary/gpu-state-schema.js";
import { describeGpus } from "../../src/scorecard/read-gpu-snapshot.js";
import { calibrationSettingsOf } from "../../src/config/calibration-settings.js";
import { fitCalibration } from "../../src/calibration/fit-calibration.js";
import { buildScorecard, cardSettings, emptyProvenance } from "../../src/scorecard/build-scorecard.js";
import { calibrationFacts } from "../../src/scorecard/rescore-card.js";
import type { CardQuality, ScenarioResult, Scorecard, TimeSpent } from "../../src/scorecard/scorecard-schema.js";
import { assembleScenarioCard } from "../../src/scorecard/assemble-scenario-card.js";
import { toLogTail } from "../../src/safe-text/sanitize-log-tail.js";
import type { ChunkArrival, CompletedRequest, RequestRecord } from "../../src/scoring/request-record.js";
import { type RoundRun, scoreRound } from "../../src/scoring/score-round.js";
import { DEFAULT_BENCH_RUNS } from "../../src/scoring/evaluate-gate.js";
import { createSeededRandom } from "../../src/scoring/seeded-random.js";
import { BUILT_IN_WORDS, HONEST, answerRun } from "../../src/sim-engine/answer-text.js";
import type { SimProfileInput } from "../../src/sim-engine/sim-profile.js";
import { simulateRound } from "../../src/sim-engine/simulate-round.js";

/*
 * The cards in examples/cards/, made by the code that makes real cards: synthetic but plausible
 * streams go through the real scoring rule and metrics, and a failing engine's log (kept beside its
 * card) goes through the real classifier, so a card's failure, hint and GPU state agree with its log.
 */

export interface ExampleCard {
  name: string;
  card: Scorecard;
}

export const EXAMPLES_DIR = new URL("../../examples/cards/", import.meta.url);
const NOW = new Date("2026-11-29T12:00:00Z");
const DOCS_BASE_URL = "https://github.com/speedgate-dev/speedgate/blob/v0.1.0/docs/troubleshooting/";
const BASELINE_IMAGE_ID = "sha256:aa11bb22cc33dd44ee55ff6600771188229933aa44bb55cc66dd77ee88ff9900";
const CANDIDATE_IMAGE_ID = "sha256:3f1c0a8d9e2b4f6a7c5d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b";
const PROMPTS_HASH = "0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9";
const PATCH_HASH = "9b74c9897bac770ffc029102a200c5de4d0b0b3a6b1a5c3f5d2e1f0a9b8c7d6e";
const QUESTIONS_HASH = "5d41402abc4b2a76b9719d911017c592e3b0c44298fc1c149afbf4c8996fb924";

/** A llama.cpp server round in place of the SGLang one the other examples use. */
const LLAMA_CPP_ENGINE = { engine: "llama.cpp", port: 8080, image: "ghcr.io/ggml-org/llama.cpp:server-cuda", sourceDir: "/app" };

function config(
  overrides: {
    requestIntervalMs?: number;
    minRoundScore?: number;
    runs?: number | { min: number; max: number };
    calibration?: string;
    engine?: typeof LLAMA_CPP_ENGINE;
    /** A question set both engines answer, judged with gate.answers: quality. */
    quality?: boolean;
  } = {},
): RoundConfig {
  const engine = overrides.engine ?? { engine: "sglang", port: 30000, image: "lmsysorg/sglang:v0.5.5", sourceDir: "/sgl-workspace/sglang" };
  return parseRoundConfig({
    engine: engine.engine,
    runtime: "docker",
    port: engine.port,
    baseline: { image: engine.image },
    candidate: { patch: "./submission.patch", sourceDir: engine.sourceDir },
    bench: {
      prompts: "./prompts.jsonl",
      maxTokens: 512,
      requestIntervalMs: overrides.requestIntervalMs ?? 500,
      contextLimit: 32768,
      tolerance: 0.9,
      runs: overrides.runs ?? 1,
    },
    gate: {
      minRoundScore: overrides.minRoundScore ?? 1.0,
      ...(overrides.calibration ? { calibration: overrides.calibration } : {}),
      ...(overrides.quality ? { answers: "quality" } : {}),
    },
    ...(overrides.quality ? { quality: { questions: "/srv/speedgate/quality/gsm8k-test-200.jsonl" } } : {}),
  });
}

interface StreamShape {
  sentMs: number;
  tokens: number;
  ttftMs: number;
  itlMs: number;
  finishReason?: string;
  /** A numerics change: from this token on the answer is another text (the reference engine's drift). */
  partsAfter?: number;
}

/**
 * The answer a record streamed, as the benchmark client keeps it: the reference engine's honest
 * answer, cut where each chunk ended. Both engines of a round give the same answer to a prompt, so
 * the card compares them as it compares a real round's (and its median agreement is measured).
 */
function withAnswerText(record: CompletedRequest, partsAfter: number | null = null): CompletedRequest {
  const contentEnds: number[] = [];
  let content = "";
  let tokens = 0;
  const style = partsAfter === null ? HONEST : { ...HONEST, divergeAfterTokens: partsAfter };
  for (const chunk of record.chunks) {
    content += answerRun(BUILT_IN_WORDS, style, "content", tokens, chunk.tokens, 0);
    tokens = chunk.tokens;
    contentEnds.push(content.length);
  }
  return { ...record, text: { content, reasoning: "", contentEnds, reasoningEnds: contentEnds.map(() => 0) } };
}

/** A stream of one token a chunk whose gaps vary by ±15%, with a rare scheduler stall, as real decode does. */
function stream(random: () => number, shape: StreamShape): CompletedRequest {
  const chunks: ChunkArrival[] = [];
  let t = shape.ttftMs;
  for (let tokens = 1; tokens <= shape.tokens; tokens++) {
    chunks.push({ tMs: Math.round(t * 1000) / 1000, tokens });
    const stall = random() < 0.01 ? 6 : 1;
    t += shape.itlMs * (0.85 + 0.3 * random()) * stall;
  }
  return withAnswerText(
    {
      ok: true,
      chunks,
      outputTokens: shape.tokens,
      finishReason: shape.finishReason ?? (shape.tokens >= 512 ? "length" : "stop"),
      endMs: Math.round((t + 2) * 1000) / 1000,
      tokensEstimated: false,
      sentMs: shape.sentMs,
    },
    shape.partsAfter ?? null,
  );
}

interface GpuSpec {
  name: string;
  totalMiB: number;
  usedMiB: number[];
  processes?: GpuSnapshot["processes"];
  takenAt: string;
}

function snapshot(spec: GpuSpec): GpuSnapshot {
  return {
    takenAt: spec.takenAt,
    error: null,
    driverVersion: "570.124.06",
    cudaVersion: "12.8",
    gpus: spec.usedMiB.map((used, index) => ({
      index,
      uuid: `GPU-5e1f${index}a2c-7d3b-4c59-9e0a-${String(index).repeat(12)}`,
      name: spec.name,
      memoryTotalMiB: spec.totalMiB,
      memoryUsedMiB: used,
    })),
    processes: spec.processes ?? [],
    processesError: null,
  };
}

const H100 = { name: "NVIDIA H100 80GB HBM3", totalMiB: 81559 };

/** A CPU runner's GPU snapshot: no nvidia-smi, no GPU. */
const cpuRunner = (takenAt: string): GpuSnapshot => ({
  takenAt,
  error: "nvidia-smi is not on the runner's PATH",
  driverVersion: null,
  cudaVersion: null,
  gpus: [],
  processes: [],
  processesError: null,
});
// torch reports this card as "a total capacity of 31.36 GiB", as the logs beside the OOM cards say.
const RTX_5090 = { name: "NVIDIA GeForce RTX 5090", totalMiB: 32607 };

interface PromptPlan {
  id: string;
  baseline: StreamShape;
  candidate: StreamShape | { error: string } | null;
}

/** A calibration's A/A study as a card carries it: the scores of 20 rounds of the baseline against itself. */
interface ExampleCalibration {
  measuredAt: string;
  scores: number[];
}

function card(options: {
  config: RoundConfig;
  plans: PromptPlan[];
  seed: number;
  failure?: EngineFailure | null;
  gpu: { baseline: GpuSnapshot | null; candidate: GpuSnapshot | null };
  /** How much a whole engine start runs faster or slower (±, uniform), when bench.runs repeats the round. */
  startSpread?: number;
  calibration?: ExampleCalibration;
  /** The prompts file as the round config writes it, for a scenario's card. */
  promptsSource?: string;
  /** With a run budget: the runs the rule took before it stopped. */
  runsTaken?: number;
  /** Where the round's time went, for the method section. */
  timeSpent?: TimeSpent;
  /** The question set's outcomes per question and run, when the round has one. */
  questions?: CardQuality["questions"];
}): Scorecard {
  const random = createSeededRandom(options.seed);
  // A budget's example runs as many as its rule took (runsTaken); a number runs that many.
  const runCount = options.runsTaken ?? mostRuns(options.config.bench.runs);
  const failure = options.failure ?? null;
  // One run draws exactly what a single-run card always drew, so adding runs to one example leaves the others as they were.
  const startFactor = (): number => (runCount === 1 ? 1 : 1 + (options.startSpread ?? 0) * (random() * 2 - 1));
  const scaled = (shape: StreamShape, factor: number): StreamShape => ({
    ...shape,
    ttftMs: shape.ttftMs * factor,
    itlMs: shape.itlMs * factor,
  });
  const runs: RoundRun[] = Array.from({ length: runCount }, (_, index) => {
    const baselineFactor = startFactor();
    const candidateFactor = startFactor();
    const baseline = new Map<string, RequestRecord>();
    const candidate = new Map<string, RequestRecord>();
    for (const plan of options.plans) {
      baseline.set(plan.id, stream(random, scaled(plan.baseline, baselineFactor)));
      if (plan.candidate === null) continue;
      candidate.set(
        plan.id,
        "error" in plan.candidate
          ? { ok: false, kind: "http_error", reason: plan.candidate.error }
          : stream(random, scaled(plan.candidate, candidateFactor)),
      );
    }
    const last = index === runCount - 1;
    // A baseline that failed at startup answered nothing, and the candidate never started.
    if (failure?.engine === "baseline")
      return { baseline: { records: new Map(), failure: last ? failure : null }, candidate: { records: new Map(), failure: null } };
    return { baseline: { records: baseline, failure: null }, candidate: { records: candidate, failure: last ? failure : null } };
  });
  const provenance = {
    imageDigest: CANDIDATE_IMAGE_ID,
    baselineImage: options.config.baseline.image ?? null,
    baselineImageId: BASELINE_IMAGE_ID,
    patchHash: PATCH_HASH,
    runner: "gpu-runner-3",
    gpu: describeGpus(options.gpu.baseline),
    // A calibration is for one prompt set; the card names it so that the fit can be checked.
    ...(options.calibration ? { promptsHash: PROMPTS_HASH } : {}),
  };
  const calibration = options.calibration
    ? fitCalibration(
        {
          measuredAt: options.calibration.measuredAt,
          engine: options.config.engine,
          runner: provenance.runner,
          gpu: provenance.gpu,
          baselineImage: provenance.baselineImage,
          baselineImageId: provenance.baselineImageId,
          promptsHash: PROMPTS_HASH,
          settings: calibrationSettingsOf(options.config, options.plans.length),
          scores: options.calibration.scores,
        },
        calibrationFacts({
          engine: options.config.engine,
          provenance: { ...emptyProvenance(), ...provenance },
          settings: cardSettings(options.config),
        }),
      )
    : null;
  const result = scoreRound({
    promptIds: options.plans.map((plan) => plan.id),
    runs,
    tolerance: options.config.bench.tolerance,
    gate: options.config.gate,
    agreementTokens: options.config.bench.agreementTokens,
    noise: calibration ? { floor: calibration.noiseFloor, problems: calibration.problems } : null,
    ...(typeof options.config.bench.runs === "object"
      ? { sequential: { budget: options.config.bench.runs, order: options.config.bench.order } }
      : {}),
    quality: options.questions ?? null,
  });
  const quality = options.config.quality;
  return buildScorecard({
    config: options.config,
    result,
    failure,
    calibration,
    gpuSnapshots: options.gpu,
    docsBaseUrl: DOCS_BASE_URL,
    now: NOW,
    provenance,
    ...(options.promptsSource ? { promptsSource: options.promptsSource } : {}),
    ...(options.timeSpent ? { timeSpent: options.timeSpent } : {}),
    ...(quality && options.questions
      ? {
          quality: {
            questionsHash: QUESTIONS_HASH,
            scorer: quality.scorer,
            maxTokens: quality.maxTokens,
            questions: options.questions,
          },
        }
      : {}),
  });
}

/**
 * A question set's outcomes over `runs` runs, as a GPU engine gives them: `right` of `total` right for the
 * baseline, a few questions at a near-tie that flip in some runs, and the candidate `lost` and `gained`
 * questions in every run (a numerics change, or a drop).
 */
function questionOutcomes(spec: {
  total: number;
  right: number;
  lost: number;
  gained: number;
  runs: number;
  seed: number;
}): CardQuality["questions"] {
  const random = createSeededRandom(spec.seed);
  // The candidate's changes fall on questions spread through the set, not its first lines.
  const spread = (from: number, to: number): number[] =>
    Array.from({ length: to - from }, (_, offset) => from + offset).sort((a, b) => ((a * 37) % spec.total) - ((b * 37) % spec.total));
  const lost = new Set(spread(0, spec.right).slice(0, spec.lost));
  const gained = new Set(spread(spec.right, spec.total).slice(0, spec.gained));
  return Array.from({ length: spec.total }, (_, index) => {
    const right = index < spec.right;
    const candidateRight = right ? !lost.has(index) : gained.has(index);
    const nearTie = random() < 0.04;
    const answer = (usual: boolean): boolean => (nearTie && random() < 0.3 ? !usual : usual);
    return {
      id: `gsm8k-${String(index + 1).padStart(4, "0")}`,
      baseline: Array.from({ length: spec.runs }, () => answer(right)),
      candidate: Array.from({ length: spec.runs }, () => answer(candidateRight)),
    };
  });
}

/**
 * Where a round's time went on an H100 runner, run by run: each start loads the model (about a minute
 * and a half) and warms up, then benchmarks. Made from the run count, as runRound would record it.
 */
function timeSpentOf(runs: number, benchmarkMs: { baseline: number; candidate: number }): TimeSpent {
  const side = (benchmark: number) => ({
    starts: runs,
    startMs: runs * 96_400,
    warmupMs: runs * 6_000,
    benchmarkMs: runs * benchmark,
    stopMs: runs * 2_300,
  });
  const baseline = side(benchmarkMs.baseline);
  const candidate = side(benchmarkMs.candidate);
  const engines = [baseline, candidate].reduce((sum, one) => sum + one.startMs + one.warmupMs + one.benchmarkMs + one.stopMs, 0);
  return { totalMs: 41_000 + engines + 1_500, prepareMs: 41_000, baseline, candidate };
}

/** Prompts of varied length: prefill grows with the prompt, decode with the answer. */
function plans(
  count: number,
  seed: number,
  intervalMs: number,
  candidateShape: (base: StreamShape, index: number) => PromptPlan["candidate"],
): PromptPlan[] {
  const random = createSeededRandom(seed);
  return Array.from({ length: count }, (_, index) => {
    const promptTokens = 200 + Math.floor(random() * 2800);
    const tokens = Math.min(512, 160 + Math.floor(random() * 400));
    const base: StreamShape = { sentMs: index * intervalMs, tokens, ttftMs: 45 + promptTokens * 0.05, itlMs: 21 };
    return { id: `sharegpt-${String(index + 1).padStart(4, "0")}`, baseline: base, candidate: candidateShape(base, index) };
  });
}

/** An engine that died at startup with this log beside its card, classified as a round classifies it. */
async function startupFailure(
  logName: string,
  role: EngineFailure["engine"] = "candidate",
  how: { engine: EngineFamily; exit: EngineExit } = { engine: "sglang", exit: { exitCode: 1, signal: null, oomKilled: false } },
): Promise<EngineFailure> {
  const log = await readFile(new URL(logName, EXAMPLES_DIR), "utf8");
  return classifyFailure({ role, stage: "startup", exit: how.exit, logLines: toLogTail(log), engine: how.engine });
}

const DEMO_DIR = new URL("../../examples/demo/", import.meta.url);

/** The demo engine's profile after its patch, applied by git as a round applies it to a copy of the source. */
async function patchedDemoProfile(patchText: string): Promise<SimProfileInput> {
  const dir = await mkdtemp(join(tmpdir(), "speedgate-demo-example-"));
  try {
    await cp(new URL("engine/", DEMO_DIR), dir, { recursive: true });
    const patchPath = join(dir, "..", `${basename(dir)}.patch`);
    await writeFile(patchPath, patchText);
    try {
      await applyPatch({ dir, patchPath, patchText, role: "candidate", signal: AbortSignal.timeout(60_000) });
    } finally {
      await rm(patchPath, { force: true });
    }
    return JSON.parse(await readFile(join(dir, "profile.json"), "utf8")) as SimProfileInput;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The card `speedgate demo` makes: the reference engine of examples/demo/ against the same engine
 * with faster.patch, the demo round's settings, its records simulated offline by the engine's own
 * timing model (simulateBenchmark) with the answers it streams, so that the card is the same on
 * every machine. The patch is faster but stops two answers early, so the gate does not pass.
 */
async function demoCard(): Promise<Scorecard> {
  const loaded = await loadRound(fileURLToPath(new URL("round.yml", DEMO_DIR)));
  const config = loaded.config;
  const baselineProfile = JSON.parse(await readFile(new URL("engine/profile.json", DEMO_DIR), "utf8")) as SimProfileInput;
  const candidateProfile = await patchedDemoProfile(loaded.patch?.bytes.toString("utf8") ?? "");
  const promptIds = loaded.prompts.map((prompt) => prompt.id);
  const [run] = simulateRound({
    baseline: baselineProfile,
    candidate: candidateProfile,
    promptIds,
    runs: 1,
    maxTokens: config.bench.maxTokens,
    round: 0,
  });
  if (!run) throw new Error("the demo round simulated no run");
  // The benchmark client sends on the round's schedule and keeps each answer's text.
  const asSent = (records: ReadonlyMap<string, RequestRecord>): Map<string, RequestRecord> =>
    new Map(
      [...records].map(([id, record], index) => [
        id,
        record.ok ? withAnswerText({ ...record, sentMs: index * config.bench.requestIntervalMs }) : record,
      ]),
    );
  const noGpu = (takenAt: string): GpuSnapshot => ({
    takenAt,
    error: "nvidia-smi is not on the runner's PATH",
    driverVersion: null,
    cudaVersion: null,
    gpus: [],
    processes: [],
    processesError: null,
  });
  const result = scoreRound({
    promptIds,
    runs: [
      {
        baseline: { ...run.baseline, records: asSent(run.baseline.records) },
        candidate: { ...run.candidate, records: asSent(run.candidate.records) },
      },
    ],
    tolerance: config.bench.tolerance,
    gate: config.gate,
    agreementTokens: config.bench.agreementTokens,
  });
  return buildScorecard({
    config,
    result,
    failure: null,
    gpuSnapshots: { baseline: noGpu("2026-11-29T11:58:02.000Z"), candidate: noGpu("2026-11-29T11:58:05.000Z") },
    docsBaseUrl: DOCS_BASE_URL,
    now: NOW,
    provenance: { patchHash: loaded.patch?.sha256 ?? null, ...loaded.fingerprint, runner: "dev-laptop" },
  });
}

/** Synthetic prompts of one shape (bench.prompts.synthetic): every answer runs to its length (ignore_eos). */
function syntheticPlans(
  count: number,
  shape: { inputTokens: number; outputTokens: number },
  sentMs: (index: number) => number,
  itlMs: number,
  candidateShape: (base: StreamShape) => PromptPlan["candidate"],
): PromptPlan[] {
  return Array.from({ length: count }, (_, index) => {
    const base: StreamShape = {
      sentMs: sentMs(index),
      tokens: shape.outputTokens,
      ttftMs: 45 + shape.inputTokens * 0.05,
      itlMs,
      finishReason: "length",
    };
    return { id: `synthetic-${String(index + 1).padStart(2, "0")}`, baseline: base, candidate: candidateShape(base) };
  });
}

/**
 * A decode kernel patch scored on three workloads of one round (examples/rounds/sglang-scenarios.yaml's
 * kind): faster on chat traffic and on a lone fixed-length decode, slower once 32 streams share the
 * batch. Each engine started once per run for all three; the starts are most of the round, as an 8B
 * model's are on a GPU.
 */
function scenariosCard(gpu: { baseline: GpuSnapshot; candidate: GpuSnapshot }): Scorecard {
  const synthetic = { inputTokens: 128, outputTokens: 256, count: 16 };
  const scenario = (
    name: string,
    bench: Record<string, unknown>,
    gate: { minRoundScore: number } | { role: "guard" },
    plansOf: PromptPlan[],
    seed: number,
  ): ScenarioResult => {
    const base = config({ runs: DEFAULT_BENCH_RUNS });
    const { role, ...bar } = { role: undefined, ...gate };
    const parsed = parseRoundConfig({
      ...base,
      bench: {
        ...base.bench,
        ...bench,
        ...("concurrency" in bench ? { requestIntervalMs: undefined, arrival: undefined } : {}),
        ...("prompts" in bench ? { tokenizer: { path: "/models/Qwen3-8B/tokenizer.json", from: "runner" } } : {}),
      },
      gate: { ...base.gate, ...bar },
    });
    // A guard's role is a scenario's (examples/rounds/sglang-scenarios.yaml), merged in as mergeScenarioConfig does.
    const scenarioConfig = role ? { ...parsed, gate: { ...parsed.gate, role } } : parsed;
    // A scenario without prompts of its own sends bench's file (examples/rounds/sglang-scenarios.yaml's).
    const promptsSource = "prompts" in bench ? {} : { promptsSource: "./prompts.jsonl" };
    return { name, card: card({ config: scenarioConfig, seed, plans: plansOf, startSpread: 0.01, gpu, ...promptsSource }) };
  };
  const chat = scenario(
    "chat-rate4",
    { requestIntervalMs: 250, arrival: "poisson" },
    { minRoundScore: 1.0 },
    plans(12, 7, 250, (base) => ({ ...base, itlMs: base.itlMs / 1.1 })),
    47,
  );
  const lone = scenario(
    "decode-c1",
    { prompts: { synthetic: { ...synthetic, seed: 1 } }, maxTokens: 256, concurrency: 1 },
    { role: "guard" },
    syntheticPlans(
      16,
      synthetic,
      (index) => index * 5_400,
      21,
      (base) => ({ ...base, itlMs: base.itlMs / 1.2 }),
    ),
    53,
  );
  const batched = scenario(
    "decode-c32",
    { prompts: { synthetic: { ...synthetic, seed: 2 } }, maxTokens: 256, concurrency: 32 },
    { role: "guard" },
    syntheticPlans(
      16,
      synthetic,
      () => 0,
      34,
      (base) => ({ ...base, itlMs: base.itlMs * 1.08 }),
    ),
    59,
  );
  const benchmarkMs = (role: "baseline" | "candidate"): number =>
    [chat, lone, batched].reduce((sum, { card: scenarioCard }) => {
      const ends = scenarioCard.prompts.map((prompt) => prompt[role]?.e2eMs ?? 0);
      return sum + DEFAULT_BENCH_RUNS * Math.max(0, ...ends) * (scenarioCard.settings.concurrency === 1 ? scenarioCard.prompts.length : 1);
    }, 0);
  const timeSpent: TimeSpent = {
    prepareMs: 171_000,
    baseline: {
      starts: DEFAULT_BENCH_RUNS,
      startMs: 4 * 96_400,
      warmupMs: 4 * 3 * 2_100,
      benchmarkMs: Math.round(benchmarkMs("baseline")),
      stopMs: 4 * 2_300,
    },
    candidate: {
      starts: DEFAULT_BENCH_RUNS,
      startMs: 4 * 98_100,
      warmupMs: 4 * 3 * 2_000,
      benchmarkMs: Math.round(benchmarkMs("candidate")),
      stopMs: 4 * 2_400,
    },
    totalMs: 0,
  };
  const sides = [timeSpent.baseline, timeSpent.candidate];
  timeSpent.totalMs =
    timeSpent.prepareMs + sides.reduce((sum, side) => sum + side.startMs + side.warmupMs + side.benchmarkMs + side.stopMs, 0) + 4_000;
  return assembleScenarioCard([chat, lone, batched], 0.97, { timeSpent });
}

export async function buildExampleCards(): Promise<ExampleCard[]> {
  const idleH100 = (takenAt: string): GpuSnapshot => snapshot({ ...H100, usedMiB: [1], takenAt });
  const idle5090 = (takenAt: string): GpuSnapshot => snapshot({ ...RTX_5090, usedMiB: [1, 1, 1, 1], takenAt });

  // A patch that speeds decode up by a fifth and leaves prefill alone, in four runs of each engine (bench.runs: 4, the
  // default before run budgets), counterbalanced, no calibration, on a runner whose engine starts differ by about 1%.
  const passingConfig = config({ runs: DEFAULT_BENCH_RUNS });
  const passing = card({
    config: passingConfig,
    seed: 11,
    plans: plans(12, 7, 500, (base) => ({ ...base, itlMs: 16.8 })),
    startSpread: 0.01,
    gpu: { baseline: idleH100("2026-11-29T11:52:04.000Z"), candidate: idleH100("2026-11-29T11:56:41.000Z") },
  });

  // Eighty prompts: decode a tenth faster, prefill 15% slower, a few short answers, two errors and one stalled prompt.
  const largeConfig = config({ requestIntervalMs: 250, minRoundScore: 1.05 });
  const large = card({
    config: largeConfig,
    seed: 23,
    plans: plans(80, 19, 250, (base, index) => {
      if (index % 17 === 5) return { ...base, tokens: Math.floor(base.tokens / 3), finishReason: "stop", itlMs: 18.9 };
      if (index === 41 || index === 66) return { error: "HTTP 500: Internal Server Error" };
      if (index === 30) return { ...base, ttftMs: base.ttftMs * 1.15, itlMs: 21 * 4.3 };
      return { ...base, ttftMs: base.ttftMs * 1.15, itlMs: 18.9 };
    }),
    gpu: { baseline: idleH100("2026-11-29T11:40:12.000Z"), candidate: idleH100("2026-11-29T11:47:55.000Z") },
  });

  // The candidate runs out of memory capturing CUDA graphs on a GPU as idle as the baseline's: the patch needs more memory.
  const oomConfig = config();
  const oom = card({
    config: oomConfig,
    seed: 31,
    failure: await startupFailure("candidate-cuda-oom.log"),
    plans: plans(12, 7, 500, () => null),
    gpu: { baseline: idle5090("2026-09-17T14:05:40.000Z"), candidate: idle5090("2026-09-17T14:09:58.000Z") },
  });

  // The same runner, but a process another job left behind holds 11 GiB on GPU 3 when the candidate starts.
  const busy = card({
    config: oomConfig,
    seed: 37,
    failure: await startupFailure("candidate-cuda-oom-busy-runner.log"),
    plans: plans(12, 7, 500, () => null),
    gpu: {
      baseline: idle5090("2026-09-18T09:36:22.000Z"),
      candidate: snapshot({
        ...RTX_5090,
        usedMiB: [1, 1, 1, 11290],
        processes: [{ gpuUuid: "GPU-5e1f3a2c-7d3b-4c59-9e0a-333333333333", pid: 48211, name: "python3", usedMemoryMiB: 11284 }],
        takenAt: "2026-09-18T09:41:03.000Z",
      }),
    },
  });

  // A patch 12% faster between tokens, measured in three runs on a runner whose engine starts differ by about 1%,
  // and gated on the runner's calibration: the bar is the noise floor its A/A study measured.
  const calibratedConfig = config({ runs: 3, calibration: "speedgate-calibration.json" });
  const calibrated = card({
    config: calibratedConfig,
    seed: 29,
    plans: plans(12, 7, 500, (base) => ({ ...base, itlMs: base.itlMs / 1.12 })),
    startSpread: 0.01,
    calibration: {
      measuredAt: "2026-11-20T08:30:00.000Z",
      scores: [
        0.998, 1.004, 0.991, 1.012, 1.001, 0.987, 1.006, 0.995, 1.009, 1.0, 0.993, 1.015, 0.998, 1.003, 0.989, 1.007, 0.996, 1.002, 1.01,
        0.994,
      ],
    },
    gpu: { baseline: idleH100("2026-11-29T11:31:10.000Z"), candidate: idleH100("2026-11-29T11:35:47.000Z") },
  });

  // A decode kernel 1.5 times as fast, at the default run budget (2 to 24 runs, the sequential rule): the test is
  // decided after the first pair of runs, on a runner whose engine starts differ by about 8% (an H200 at saturation).
  const budgetConfig = config({ runs: { ...DEFAULT_RUN_BUDGET } });
  const decidedEarly = card({
    config: budgetConfig,
    seed: 53,
    runsTaken: 2,
    plans: plans(12, 7, 500, (base) => ({ ...base, ttftMs: base.ttftMs / 1.5, itlMs: base.itlMs / 1.5 })),
    startSpread: 0.08,
    timeSpent: timeSpentOf(2, { baseline: 31_800, candidate: 21_300 }),
    gpu: { baseline: idleH100("2026-12-05T10:02:14.000Z"), candidate: idleH100("2026-12-05T10:04:20.000Z") },
  });

  // A patch about 4% faster on the same noisy runner, with a budget of 2 to 8 runs: the test neither passes it nor rules it out, and the
  // card says what this runner could have shown in eight runs.
  const undecidedConfig = config({ runs: { min: 2, max: 8 } });
  const undecided = card({
    config: undecidedConfig,
    seed: 64,
    runsTaken: 8,
    plans: plans(12, 7, 500, (base) => ({ ...base, itlMs: base.itlMs / 1.04 })),
    startSpread: 0.08,
    timeSpent: timeSpentOf(8, { baseline: 31_800, candidate: 30_600 }),
    gpu: { baseline: idleH100("2026-12-05T11:12:44.000Z"), candidate: idleH100("2026-12-05T11:14:51.000Z") },
  });

  // The baseline itself dies on a 4-GPU runner: NCCL cannot make its shared memory segment in the
  // container's small /dev/shm. The candidate never starts: no verdict on the patch.
  const baselineFailed = card({
    config: config(),
    seed: 41,
    failure: await startupFailure("baseline-nccl-error.log", "baseline"),
    plans: plans(12, 7, 500, () => null),
    gpu: { baseline: idle5090("2026-11-28T16:02:09.000Z"), candidate: null },
  });

  // A llama.cpp kernel patch trips one of ggml's own assertions at startup: the log beside the card is
  // test/failure/fixtures/crashes/llama-cpp-ggml-assert-gdb.log, a real llama-server's (with gdb's backtrace).
  // The log is a CPU llama-server's: the card shows a CPU runner and image, not an H100 (#39).
  const assertConfig = config({ engine: { ...LLAMA_CPP_ENGINE, image: "ghcr.io/ggml-org/llama.cpp:server" } });
  const assertion = card({
    config: assertConfig,
    seed: 43,
    failure: await startupFailure("candidate-ggml-assert.log", "candidate", {
      engine: "llama.cpp",
      exit: { exitCode: null, signal: "SIGABRT", oomKilled: false },
    }),
    plans: plans(12, 7, 500, () => null),
    gpu: { baseline: cpuRunner("2026-12-03T10:12:40.000Z"), candidate: cpuRunner("2026-12-03T10:14:02.000Z") },
  });

  // A scheduler change that fails one of SGLang's own assertions mid-round (#39): the patched engine answered the first eight
  // prompts faster, then its scheduler died on the ninth. The card leads with the crash and who acts, before the score of what ran.
  const midRound = card({
    config: config(),
    seed: 47,
    failure: {
      ...classifyFailure({
        role: "candidate",
        stage: "benchmark",
        exit: { exitCode: 1, signal: null, oomKilled: false },
        logLines: toLogTail(await readFile(new URL("candidate-crash-mid-round.log", EXAMPLES_DIR), "utf8")),
        engine: "sglang",
      }),
      run: 1,
      prompt: { number: 9, id: "sharegpt-0009" },
    },
    plans: plans(12, 7, 500, (base, index) => (index < 8 ? { ...base, itlMs: 16.8 } : null)),
    gpu: { baseline: idleH100("2026-12-04T16:47:12.000Z"), candidate: idleH100("2026-12-04T16:51:02.000Z") },
  });

  // An FP8 attention kernel: 1.2× faster, and its other rounding parts every third answer after 60% of its tokens.
  // Judged by GSM8K (gate.answers: quality), the changed answers are as good: 181 → 180 of 200, held.
  const numericsPlans = (seed: number) =>
    plans(12, seed, 500, (base, index) => ({
      ...base,
      itlMs: base.itlMs / 1.2,
      ttftMs: base.ttftMs / 1.1,
      ...((index + 1) % 3 === 0 ? { partsAfter: Math.floor(base.tokens * 0.6) } : {}),
    }));
  const numerics = card({
    config: config({ runs: DEFAULT_BENCH_RUNS, quality: true }),
    seed: 61,
    plans: numericsPlans(7),
    startSpread: 0.01,
    questions: questionOutcomes({ total: 200, right: 181, lost: 4, gained: 3, runs: DEFAULT_BENCH_RUNS, seed: 67 }),
    gpu: { baseline: idleH100("2026-12-06T14:02:11.000Z"), candidate: idleH100("2026-12-06T14:06:52.000Z") },
  });
  // The same kernel with an accumulation bug: as fast, but 13 of GSM8K's questions now come out wrong in every run.
  const qualityDrop = card({
    config: config({ runs: DEFAULT_BENCH_RUNS, quality: true }),
    seed: 71,
    plans: numericsPlans(7),
    startSpread: 0.01,
    questions: questionOutcomes({ total: 200, right: 181, lost: 13, gained: 2, runs: DEFAULT_BENCH_RUNS, seed: 73 }),
    gpu: { baseline: idleH100("2026-12-06T15:12:40.000Z"), candidate: idleH100("2026-12-06T15:17:02.000Z") },
  });

  return [
    { name: "demo", card: await demoCard() },
    { name: "passing-round", card: passing },
    { name: "calibrated-three-runs", card: calibrated },
    { name: "budget-decided-early", card: decidedEarly },
    { name: "budget-undecided", card: undecided },
    { name: "large-round", card: large },
    { name: "candidate-cuda-oom", card: oom },
    { name: "candidate-cuda-oom-busy-runner", card: busy },
    { name: "baseline-nccl-error", card: baselineFailed },
    { name: "candidate-ggml-assert", card: assertion },
    { name: "candidate-crash-mid-round", card: midRound },
    { name: "quality-numerics-change", card: numerics },
    { name: "quality-drop", card: qualityDrop },
    {
      name: "scenarios-decode-regression",
      card: scenariosCard({ baseline: idleH100("2026-12-04T09:12:40.000Z"), candidate: idleH100("2026-12-04T09:14:31.000Z") }),
    },
  ];
}
