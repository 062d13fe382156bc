import { DEFAULT_MAX_UNSCORED, DEFAULT_MIN_PROMPTS } from "../scoring/evaluate-gate.js";
import type { SimProfileInput } from "./sim-profile.js";
import type { GateScenario } from "./study-gate.js";

/** The noise of a runner, as the reference engine injects it. */
export interface RunnerNoise {
  /** Per engine start, log-scale standard deviation of its speed (0.01: starts differ by about 1%). */
  runVariance: number;
  /** Per request, log-scale standard deviation of its timing. */
  jitter: number;
  /** Per run, log-scale standard deviation of a load both of its starts share (a shared machine's other work); 0 without. */
  runLoad?: number;
}

/**
 * The runner the README's figures are quoted for: a restart shifts an engine's speed by 1% (so two
 * engine starts differ by 1.4%), and each request's timing varies by 3%. The harsher runner,
 * where two starts differ by 2%, is HARSH_RUNNER.
 */
export const DOCUMENTED_RUNNER: RunnerNoise = { runVariance: 0.01, jitter: 0.03 };
export const HARSH_RUNNER: RunnerNoise = { runVariance: 0.0141, jitter: 0.03 };
/** Past what the default is promised for: engine starts that differ by 3%. */
export const NOISY_RUNNER: RunnerNoise = { runVariance: 0.0212, jitter: 0.03 };
/** Engine starts that differ by 8%: an H200 with llama.cpp's CUDA server at saturation (issue #43), what run budgets are for. */
export const H200_RUNNER: RunnerNoise = { runVariance: 0.0566, jitter: 0.03 };
export const DOCUMENTED_PROMPTS = 30;
/** A/A rounds in a calibration, as `speedgate calibrate` runs by default. */
export const DOCUMENTED_CALIBRATION_ROUNDS = 20;

/**
 * A round at speedgate's default gate settings (bar 1.0, gate.maxUnscored, gate.minPrompts,
 * tolerance 0.9) on the reference engine: prompts of 64 to 255 output tokens, seeded noise.
 */
export function referenceScenario(options: { noise: RunnerNoise; prompts?: number; runs?: number; seed?: number }): GateScenario {
  const promptIds = Array.from(
    { length: options.prompts ?? DOCUMENTED_PROMPTS },
    (_, index) => `prompt-${String(index + 1).padStart(3, "0")}`,
  );
  const engine: SimProfileInput = {
    defaults: { ttftMs: 40, itlMs: 8, outputTokens: 128 },
    prompts: Object.fromEntries(promptIds.map((id, index) => [id, { outputTokens: 64 + ((index * 37) % 192) }])),
    noise: { jitter: options.noise.jitter, runVariance: options.noise.runVariance, seed: options.seed ?? 1 },
  };
  return {
    engine,
    promptIds,
    maxTokens: 512,
    runs: options.runs ?? 1,
    tolerance: 0.9,
    gate: { minRoundScore: 1, maxUnscored: DEFAULT_MAX_UNSCORED, minPrompts: DEFAULT_MIN_PROMPTS },
    ...(options.noise.runLoad ? { runLoad: options.noise.runLoad } : {}),
  };
}

/** Nondeterminism as the GPU round showed it: a quarter of the prompts have two continuations, parting a quarter of the way in. */
export function bistableEngine(engine: SimProfileInput, probability: number): SimProfileInput {
  return { ...engine, answer: { branches: { every: 4, atFraction: 0.25, probability, lengthFactor: 0.6 } } };
}
