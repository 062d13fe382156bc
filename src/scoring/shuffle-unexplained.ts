import { type AnswerPrefixes, isBaselineIndex, runsInPool } from "./pooled-answers.js";
import { createSeededRandom } from "./seeded-random.js";

/*
 * Are the candidate's unexplained answers (no baseline answer is their start) more than the engine's
 * own nondeterminism gives? An A/A round inside the round: were the candidate the same engine, which of
 * a prompt's answers came from the "baseline" and which from the "candidate" would be chance. So the
 * labels are shuffled within each prompt over the answers both engines gave, and the test asks how
 * rarely shuffles disagree as much as the real labels do. The disagreement counts the answers of
 * either side that no answer of the other side explains (disagreementUnder says why both sides); each
 * prompt's rarity is combined over the round by Fisher's method. Measured on the reference engine with
 * a quarter of its prompts bistable (bench/gate-statistics.ts): an honest 10% faster candidate tripped
 * the rule in none of 100 rounds at 50/50 odds or at 20/80, one that replaces the second continuation
 * with filler in 96.8% of 400 (it passed 3.3%).
 * Exact over every labelling of a prompt where there are few (70 with 4 runs), else a seeded sample;
 * the round's p-value from seeded joint shuffles: the same card always gives the same answer.
 */

/** Below this many labellings of one prompt every one is tried; above, a seeded sample of this many. */
const MAX_EXACT_LABELLINGS = 4_096;
const SHUFFLE_SEED = 20261204;

/** One prompt's pooled prefix relation (BranchAnalysis.prefixes). */
export interface PooledAnswers {
  prefixes: AnswerPrefixes;
}

export interface ShuffleResult {
  /** Candidate answers no baseline answer explains, over every prompt. */
  observed: number;
  /** Candidate answers compared. */
  compared: number;
  /** How often a shuffle of the labels leaves at least `observed` unexplained: the p-value; 1 when nothing varies. */
  pValue: number;
}

/** Candidate-labelled answers that no baseline-labelled answer explains, for one labelling. */
function unexplainedUnder(prefixes: AnswerPrefixes, isBaseline: readonly boolean[]): number {
  let count = 0;
  prefixes.forEach((starts, index) => {
    if (starts === null || isBaseline[index]) return;
    if (!starts.some((other) => isBaseline[other] === true)) count++;
  });
  return count;
}

/**
 * The test's statistic for one labelling: the answers of either side that no answer of the other side
 * explains. Both sides, because what gives a replaced continuation away is that the two sides' second
 * answers never meet: the baseline's continuation is missing from the candidate's answers exactly
 * where the candidate's own appears, prompt after prompt, which shuffles of one engine's answers rarely do.
 */
function disagreementUnder(prefixes: AnswerPrefixes, isBaseline: readonly boolean[]): number {
  let count = 0;
  prefixes.forEach((starts, index) => {
    if (starts === null) return;
    const side = isBaseline[index] === true;
    if (!starts.some((other) => prefixes[other] !== null && (isBaseline[other] === true) !== side)) count++;
  });
  return count;
}

/** FNV-1a of a text: a stable 32-bit seed. */
function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

function binomial(n: number, k: number): number {
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return result;
}

/** The distribution of one prompt's unexplained count over labellings that keep each side's number of answers. */
function promptDistribution(prompt: PooledAnswers): { observed: number; statistic: number; compared: number; probabilities: number[] } {
  const runs = runsInPool(prompt.prefixes);
  const present = prompt.prefixes.flatMap((starts, index) => (starts === null ? [] : [index]));
  const baselineCount = present.filter((index) => isBaselineIndex(runs, index)).length;
  const candidateCount = present.length - baselineCount;
  const actual = prompt.prefixes.map((_, index) => isBaselineIndex(runs, index));
  const observed = unexplainedUnder(prompt.prefixes, actual);
  const statistic = disagreementUnder(prompt.prefixes, actual);
  const counts = new Array<number>(present.length + 1).fill(0);
  if (candidateCount === 0 || baselineCount === 0) return { observed, statistic: 0, compared: candidateCount, probabilities: [1] };
  const tally = (chosen: readonly number[]): void => {
    const labels = prompt.prefixes.map(() => false);
    for (const index of chosen) labels[index] = true;
    const value = disagreementUnder(prompt.prefixes, labels);
    counts[value] = (counts[value] ?? 0) + 1;
  };
  if (binomial(present.length, baselineCount) <= MAX_EXACT_LABELLINGS) {
    const choose = (from: number, chosen: number[]): void => {
      if (chosen.length === baselineCount) {
        tally(chosen);
        return;
      }
      for (let i = from; i <= present.length - (baselineCount - chosen.length); i++) choose(i + 1, [...chosen, present[i] as number]);
    };
    choose(0, []);
  } else {
    // Seeded by the prompt's own answers, so its sample is the same wherever the prompt stands in the round.
    const random = createSeededRandom(hashText(JSON.stringify(prompt.prefixes)));
    for (let draw = 0; draw < MAX_EXACT_LABELLINGS; draw++) {
      // A partial Fisher–Yates shuffle picks the baseline's side.
      const pool = [...present];
      for (let i = 0; i < baselineCount; i++) {
        const j = i + Math.floor(random() * (pool.length - i));
        [pool[i], pool[j]] = [pool[j] as number, pool[i] as number];
      }
      tally(pool.slice(0, baselineCount));
    }
  }
  const total = counts.reduce((sum, count) => sum + count, 0);
  return { observed, statistic, compared: candidateCount, probabilities: counts.map((count) => count / total) };
}

function compareNumbers(a: readonly number[], b: readonly number[]): number {
  for (let index = 0; index < Math.max(a.length, b.length); index++) {
    const difference = (a[index] ?? -1) - (b[index] ?? -1);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** Joint shuffles drawn for the round's p-value: its resolution is 1/(1 + this). */
const ROUND_SHUFFLES = 20_000;

/**
 * The shuffle test over a round's prompts (see the note at the top). Each prompt's evidence is how
 * rare its own count is under its shuffles (its p-value), and the round's statistic sums −ln of
 * them (Fisher's combination): a few prompts each with a filler answer on the candidate's side only
 * weigh more than one prompt whose answers vary every which way. The round's p-value is how often
 * shuffles of every prompt at once reach the observed statistic, from a seeded sample of shuffles.
 */
export function shuffleUnexplained(prompts: readonly PooledAnswers[]): ShuffleResult {
  let observed = 0;
  let compared = 0;
  let statistic = 0;
  const varied: Array<{ cumulative: number[]; weights: number[] }> = [];
  for (const prompt of prompts) {
    const one = promptDistribution(prompt);
    observed += one.observed;
    compared += one.compared;
    if (one.probabilities.length <= 1 || (one.probabilities[0] ?? 0) >= 1) continue;
    // P(count ≥ v) for each v, and each count's weight −ln P(count ≥ v).
    const tail = one.probabilities.map((_, v) => one.probabilities.slice(v).reduce((sum, p) => sum + p, 0));
    const weights = tail.map((p) => -Math.log(Math.min(1, p)));
    statistic += weights[Math.min(one.statistic, weights.length - 1)] ?? 0;
    let running = 0;
    varied.push({ cumulative: one.probabilities.map((p) => (running += p)), weights });
  }
  if (observed === 0 || statistic <= 0) return { observed, compared, pValue: 1 };
  // In a canonical order, so a merge of shard cards (prompts by id) draws exactly as the round did.
  varied.sort((a, b) => compareNumbers(a.cumulative, b.cumulative) || compareNumbers(a.weights, b.weights));
  const random = createSeededRandom(SHUFFLE_SEED);
  let asExtreme = 0;
  for (let draw = 0; draw < ROUND_SHUFFLES; draw++) {
    let total = 0;
    for (const prompt of varied) {
      const u = random();
      let v = prompt.cumulative.findIndex((c) => u < c);
      if (v < 0) v = prompt.cumulative.length - 1;
      total += prompt.weights[v] ?? 0;
    }
    // A relative tolerance: sums of the same logs in another order may differ in the last bits.
    if (total >= statistic * (1 - 1e-12)) asExtreme++;
  }
  return { observed, compared, pValue: (1 + asExtreme) / (1 + ROUND_SHUFFLES) };
}
