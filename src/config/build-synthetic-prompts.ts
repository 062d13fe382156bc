import type { Prompt } from "../prompts/prompt.js";
import { createSeededRandom } from "../scoring/seeded-random.js";
import type { TokenCounter } from "../tokens/token-counter.js";
import { ConfigError } from "../vocabulary/config-error.js";
import type { SyntheticPromptsSpec } from "./bench-settings-schema.js";

/*
 * Common short English words: most are one token, with their leading space, in the byte-level BPE
 * and SentencePiece vocabularies served models use, so a prompt's length can be summed from its
 * words' lengths and then checked once against the whole text.
 */
const WORDS = (
  "the of and to in is that it for was on are as with his they at be this from have or by one had not but what all were " +
  "when we there can an your which their said if do will each about how up out them then she many some so these would other " +
  "into has more her two like him see time could no make than first been its who now people my made over did down only way " +
  "find use may water long little very after words called just where most know get through back much before go good new " +
  "write our used me man too any day same right look think also around another came come work three word must because does " +
  "part even place well such here take why things help put years different away again off went old number great tell men " +
  "say small every found still between name should home big give air line set own under read last never us left end along " +
  "while might next sound below saw something thought both few those always looked show large often together asked house " +
  "world going want school important until form food keep children feet land side without boy once animals life enough took"
).split(" ");

/** How many times a prompt may be drawn again because an earlier one already sent the same text. */
const MAX_REDRAWS = 50;

type Draw = () => number;

const pick = (random: Draw): string => WORDS[Math.floor(random() * WORDS.length)] ?? "the";

/** Each word's tokens after a space (its place inside a prompt), counted once per tokenizer. */
function measureWords(counter: TokenCounter): Map<string, number> {
  const lengths = new Map<string, number>();
  for (const word of WORDS) lengths.set(word, counter.count(` ${word}`).ids.length);
  return lengths;
}

/**
 * Words whose tokens add up to `inputTokens`, summed from each word's own length; the last ones are
 * one-token words, so the sum lands exactly. The whole text is then counted: a tokenizer that merges
 * across words is corrected a word at a time.
 */
function drawPromptText(counter: TokenCounter, lengths: Map<string, number>, inputTokens: number, random: Draw): string | null {
  const oneToken = WORDS.filter((word) => lengths.get(word) === 1);
  const words: string[] = [];
  let planned = 0;
  // Bounded: a tokenizer with no one-token word may have no word that fits the last gap.
  for (let tries = 0; planned < inputTokens && tries < 100 * inputTokens + 1000; tries++) {
    const room = inputTokens - planned;
    const word = room > 4 ? pick(random) : (oneToken[Math.floor(random() * oneToken.length)] ?? pick(random));
    const length = lengths.get(word) ?? 1;
    if (length > room) continue;
    words.push(word);
    planned += length;
  }
  // The first word has no space before it, and a few tokenizers merge across words: measure the text itself.
  for (let attempt = 0; attempt < 4 * inputTokens + 16; attempt++) {
    const text = words.join(" ");
    const counted = counter.count(text).ids.length;
    if (counted === inputTokens) return text;
    if (counted > inputTokens) words.pop();
    else words.push(oneToken[Math.floor(random() * oneToken.length)] ?? pick(random));
    if (words.length === 0) return null;
  }
  return null;
}

/**
 * The round's synthetic prompts: `count` plain-text completions, each exactly `inputTokens` tokens by
 * the round's tokenizer (special tokens such as a BOS the engine adds are not counted) and each asking
 * for exactly `outputTokens`. The same seed gives the same prompts; no two send the same text, since
 * an engine that caches answers could answer a repeat from memory.
 */
export function buildSyntheticPrompts(spec: SyntheticPromptsSpec, counter: TokenCounter, field = "bench.prompts.synthetic"): Prompt[] {
  const random = createSeededRandom(spec.seed);
  const lengths = measureWords(counter);
  const width = String(spec.count).length;
  const seen = new Set<string>();
  const prompts: Prompt[] = [];
  for (let index = 0; index < spec.count; index++) {
    let text: string | null = null;
    for (let draw = 0; draw < MAX_REDRAWS && (text === null || seen.has(text)); draw++)
      text = drawPromptText(counter, lengths, spec.inputTokens, random);
    if (text === null) {
      throw new ConfigError(
        `${field}: could not make a prompt of exactly ${spec.inputTokens} tokens with the tokenizer ${counter.source}; try another ` +
          `inputTokens`,
      );
    }
    if (seen.has(text)) {
      throw new ConfigError(
        `${field}: ${spec.count} different prompts of ${spec.inputTokens} tokens could not be drawn (only ${seen.size} were); raise ` +
          `inputTokens or lower count`,
      );
    }
    seen.add(text);
    prompts.push({ id: `synthetic-${String(index + 1).padStart(width, "0")}`, prompt: text, maxTokens: spec.outputTokens });
  }
  return prompts;
}
