import { createHfTokenizer } from "../tokens/hf-tokenizer.js";
import type { AnswerWords } from "./answer-text.js";

const WHOLE_WORD = /^ \p{L}+$/u;
const MAX_WORDS = 2048;

/**
 * Words of a tokenizer's vocabulary the sim-engine can stream so that the text re-tokenizes to
 * exactly the tokens it counts: single tokens that decode to a space and letters, encode back to
 * themselves, and keep doing so side by side. Byte-level BPE tokenizers (GPT-2, Llama 3, Qwen…) have
 * thousands; one without such words is refused.
 */
export function pickTokenizerWords(json: Record<string, unknown>, source: string): AnswerWords {
  const tokenizer = createHfTokenizer(json);
  const special = new Set(tokenizer.get_added_tokens_decoder().keys());
  const ids = [...tokenizer.get_vocab(false).values()].filter((id) => !special.has(id)).sort((a, b) => a - b);
  const words: string[] = [];
  for (const id of ids) {
    const text = tokenizer.decode([id], { skip_special_tokens: true, clean_up_tokenization_spaces: false });
    if (!WHOLE_WORD.test(text)) continue;
    const encoded = tokenizer.encode(text, { add_special_tokens: false }).ids;
    if (encoded.length === 1 && encoded[0] === id) words.push(text);
    if (words.length >= MAX_WORDS) break;
  }
  if (words.length < 4) throw new Error(`${source}: the tokenizer has no whole-word tokens (" word") the sim-engine can stream`);
  const sample = words.slice(0, 256);
  const together = tokenizer.encode(sample.join(""), { add_special_tokens: false }).ids.length;
  if (together !== sample.length) {
    throw new Error(
      `${source}: ${sample.length} whole-word tokens streamed together re-tokenize to ${together}: the sim-engine cannot stream text ` +
        `of this tokenizer exactly`,
    );
  }
  return { content: words.filter((_, index) => index % 2 === 0), reasoning: words.filter((_, index) => index % 2 === 1) };
}
