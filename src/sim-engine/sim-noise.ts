import { createSeededRandom } from "../scoring/seeded-random.js";

/**
 * How noisy the reference engine is, as a real GPU engine is: every request's timing varies a
 * little (`jitter`), and every start of the engine runs a little faster or slower as a whole
 * (`runVariance`: clocks, thermal state, memory layout after a restart). Both are log-normal
 * factors on the request's time to first token and time between tokens, with those standard
 * deviations on the log scale (0.02 ≈ 2%).
 */
export interface SimNoiseSettings {
  jitter: number;
  runVariance: number;
  /** With a seed every draw is reproducible; without one each start draws afresh. */
  seed: number | null;
}

export interface SimNoise {
  /** This start's speed factor on every time (1.02 = 2% slower). */
  readonly runFactor: number;
  /** The factor of the next request with this key (its prompt): the n-th request of a prompt draws the same in every replay. */
  requestFactor(key: string): number;
  /**
   * A uniform draw in [0, 1) for the next request with this key, for which continuation it takes (branch-answer.ts); seeded like the rest.
   */
  branchDraw(key: string): number;
}

/** FNV-1a: a stable 32-bit seed from a seed and the names of a draw. */
function hashSeed(...parts: Array<string | number>): number {
  let hash = 0x811c9dc5;
  for (const char of parts.join("\u0000")) {
    hash ^= char.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** A standard normal draw (Box–Muller) from a uniform source. */
function normal(random: () => number): number {
  const u = Math.max(random(), Number.MIN_VALUE);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

/**
 * The noise of one engine start. `start` numbers the starts (the CLI counts them in a file), so a
 * seeded engine restarted for each run of a round still differs from run to run, reproducibly.
 */
export function createSimNoise(settings: SimNoiseSettings, start: number): SimNoise {
  const source = (...parts: Array<string | number>): (() => number) =>
    settings.seed === null ? Math.random : createSeededRandom(hashSeed(settings.seed, start, ...parts));
  const runFactor = settings.runVariance > 0 ? Math.exp(settings.runVariance * normal(source("run"))) : 1;
  const seen = new Map<string, number>();
  const branchesSeen = new Map<string, number>();
  return {
    runFactor,
    branchDraw(key) {
      const occurrence = branchesSeen.get(key) ?? 0;
      branchesSeen.set(key, occurrence + 1);
      return source("branch", key, occurrence)();
    },
    requestFactor(key) {
      if (settings.jitter <= 0) return runFactor;
      const occurrence = seen.get(key) ?? 0;
      seen.set(key, occurrence + 1);
      return runFactor * Math.exp(settings.jitter * normal(source("request", key, occurrence)));
    },
  };
}
