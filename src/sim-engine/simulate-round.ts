import type { EngineFailure } from "../vocabulary/engine-failure.js";
import type { ChunkArrival, RequestRecord } from "../scoring/request-record.js";
import type { RoundRun } from "../scoring/score-round.js";
import { DEFAULT_TIMING, type SimProfile, type SimProfileInput, planResponse, simProfileSchema } from "./sim-profile.js";
import { answerTokenId } from "./answer-text.js";
import { takeBranch } from "./branch-answer.js";
import { LATE_FILLER_SPEEDUP, answerStyle } from "./sim-integrity-profile.js";
import { createSimNoise } from "./sim-noise.js";
import { createSeededRandom } from "../scoring/seeded-random.js";

/*
 * The reference engine's timing model without the network: the records a round's benchmark client
 * would take from `speedgate sim-engine` with these profiles, chunk for chunk, at the times the
 * engine schedules its writes. The statistics of the gate (how often an unchanged engine passes,
 * how large a speedup is detected) are studied on these, thousands of rounds in seconds, with the
 * same jitter and run-level noise the engine injects when it runs for real.
 */

export interface SimulateRoundOptions {
  baseline: SimProfileInput;
  candidate: SimProfileInput;
  promptIds: readonly string[];
  /** bench.runs: starts of each engine. The model has no order effect to counterbalance: each start draws its own noise. */
  runs: number;
  maxTokens: number;
  thinking?: boolean;
  /** Numbers the simulated round, so every engine start of every round draws its own noise. */
  round: number;
  /**
   * Per run, the log-scale standard deviation of a load both of its starts share (a shared runner's other work slows the
   * baseline and the candidate of one run alike): the run's score does not see it, each engine's starts do. 0 without.
   */
  runLoad?: number;
}

/** A standard normal draw (Box–Muller) from a uniform source. */
function normalDraw(random: () => number): number {
  return Math.sqrt(-2 * Math.log(Math.max(random(), Number.MIN_VALUE))) * Math.cos(2 * Math.PI * random());
}

/** The load factor both starts of one run of one round share, seeded by the two numbers; 1 without runLoad. */
export function runLoadFactor(runLoad: number, round: number, run: number): number {
  if (!(runLoad > 0)) return 1;
  // Far from the starts' own seeds (sim-noise.ts hashes the profile's seed with the start): a load is no start's noise.
  return Math.exp(
    runLoad * normalDraw(createSeededRandom((Math.imul(round + 1, 0x9e3779b1) ^ Math.imul(run + 1, 0x85ebca6b) ^ 0x10ad) >>> 0)),
  );
}

/** The records of one engine start, and the failure that ended it (the die-after-requests fault). */
export function simulateBenchmark(
  profile: SimProfile,
  promptIds: readonly string[],
  options: {
    start: number;
    maxTokens: number;
    thinking: boolean;
    role: "baseline" | "candidate";
    /** Which run of the round (0-based): the start a --start-counter would number, for faults and cheats of some starts only. */
    run?: number;
    /** A factor on every time of this start beside its own noise: the load of its run (runLoadFactor). */
    load?: number;
  },
): { records: Map<string, RequestRecord>; failure: EngineFailure | null } {
  const noise = createSimNoise(profile.noise, options.start);
  const records = new Map<string, RequestRecord>();
  const dieAfter = profile.faults.dieAfterRequests;
  let completed = 0;
  let failure: EngineFailure | null = null;
  for (const id of promptIds) {
    if (dieAfter !== null && completed >= dieAfter) {
      failure ??= {
        engine: options.role,
        stage: "benchmark",
        kind: "exited",
        label: `exited with code ${profile.faults.dieExitCode}`,
        summary: `RuntimeError: sim-engine fault: exiting after ${completed} requests (dieAfterRequests)`,
        hint: "",
        exitCode: profile.faults.dieExitCode,
        signal: null,
        logTail: [],
        // As a real death's card names it: the first prompt it did not answer.
        prompt: { number: promptIds.indexOf(id) + 1, id },
      };
      records.set(id, {
        ok: false,
        kind: "engine_died",
        reason: `${options.role} engine exited with code ${profile.faults.dieExitCode} during the benchmark`,
      });
      continue;
    }
    const plan = planResponse(
      profile,
      id,
      options.maxTokens,
      options.thinking,
      noise.requestFactor(id) * (options.load ?? 1),
      options.run ?? 0,
    );
    if (plan.fault === "http500") {
      records.set(id, { ok: false, kind: "http_error", reason: "HTTP 500: Internal server error (sim-engine fault: http500)" });
      continue;
    }
    const fullLength = plan.reasoningTokens + plan.contentTokens;
    const promptIndex = promptIds.indexOf(id);
    const branchAt = takeBranch(profile.answer, plan, promptIndex, options.maxTokens, () => noise.branchDraw(id));
    const style = answerStyle(profile.answer, profile.cheats, fullLength, promptIndex, branchAt, {
      promptId: id,
      start: options.run ?? 0,
      // A tag of its own for every request of the simulation: the start and the prompt's place.
      tag: options.start * promptIds.length + promptIndex,
    });
    const total = plan.reasoningTokens + plan.contentTokens;
    // As the engine schedules them: the chunk that reaches token n is due at ttft + (n − 1)·itl; filler
    // after an honest start comes LATE_FILLER_SPEEDUP times faster (the batch it leaves is not modelled).
    const honest = style.fillerAfterTokens ?? Number.POSITIVE_INFINITY;
    const dueAt = (tokens: number): number =>
      tokens - 1 < honest
        ? plan.ttftMs + (tokens - 1) * plan.itlMs
        : plan.ttftMs + honest * plan.itlMs + (tokens - 1 - honest) * (plan.itlMs / LATE_FILLER_SPEEDUP);
    const chunks: ChunkArrival[] = [];
    for (let reached = 0; reached < total;) {
      reached = Math.min(reached + plan.tokensPerChunk, total);
      chunks.push({ tMs: dueAt(reached), tokens: reached });
    }
    // Token ids as speedgate's tokenizer would count them, so answers compare as a real round's do.
    const ids = Int32Array.from({ length: total }, (_, index) => answerTokenId(style, index, index));
    const tokenIds = { reasoning: ids.subarray(0, plan.reasoningTokens), content: ids.subarray(plan.reasoningTokens) };
    const endMs = chunks.at(-1)?.tMs ?? plan.ttftMs;
    if (plan.fault === "malformed_sse") {
      records.set(id, {
        ok: false,
        kind: "stream_error",
        reason: "malformed SSE event",
        chunks: chunks.slice(0, chunks.length >>> 1),
        endMs,
      });
      continue;
    }
    records.set(id, {
      ok: true,
      chunks,
      outputTokens: total,
      finishReason: plan.finishReason,
      endMs,
      tokensEstimated: false,
      tokenIds,
      countedBy: "tokenizer",
    });
    completed++;
  }
  return { records, failure };
}

/** The runs of one simulated round, a baseline and a candidate start in each, each start with its own noise. */
export function simulateRound(options: SimulateRoundOptions): RoundRun[] {
  const baseline = simProfileSchema.parse(options.baseline);
  const candidate = simProfileSchema.parse(options.candidate);
  const thinking = options.thinking ?? false;
  const runs: RoundRun[] = [];
  for (let run = 0; run < options.runs; run++) {
    const start = (options.round * options.runs + run) * 2;
    const load = runLoadFactor(options.runLoad ?? 0, options.round, run);
    runs.push({
      baseline: simulateBenchmark(baseline, options.promptIds, {
        start,
        maxTokens: options.maxTokens,
        thinking,
        role: "baseline",
        run,
        load,
      }),
      candidate: simulateBenchmark(candidate, options.promptIds, {
        start: start + 1,
        maxTokens: options.maxTokens,
        thinking,
        role: "candidate",
        run,
        load,
      }),
    });
  }
  return runs;
}

/** The same engine made `speedup` times faster: every time to first token and between tokens divided by it. */
export function fasterProfile(profile: SimProfileInput, speedup: number): SimProfileInput {
  const parsed = simProfileSchema.parse(profile);
  const faster = (timing: { ttftMs?: number; itlMs?: number }) => ({
    ...timing,
    ...(timing.ttftMs === undefined ? {} : { ttftMs: timing.ttftMs / speedup }),
    ...(timing.itlMs === undefined ? {} : { itlMs: timing.itlMs / speedup }),
  });
  return {
    ...parsed,
    defaults: faster({ ttftMs: DEFAULT_TIMING.ttftMs, itlMs: DEFAULT_TIMING.itlMs, ...parsed.defaults }),
    prompts: Object.fromEntries(Object.entries(parsed.prompts).map(([id, timing]) => [id, faster(timing)])),
  };
}
