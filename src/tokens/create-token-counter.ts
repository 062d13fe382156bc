import { createHash } from "node:crypto";
import { type HfTokenizer, createHfTokenizer } from "./hf-tokenizer.js";
import { alignDecodedOffsets } from "./align-decoded-offsets.js";
import type { CountedText, TokenCounter } from "./token-counter.js";
import { utf8BytesAt } from "./utf8-length.js";

interface ComponentJson {
  type?: unknown;
  decoders?: unknown;
  pretokenizers?: unknown;
}

function hasComponent(value: unknown, type: string): boolean {
  if (!value || typeof value !== "object") return false;
  const component = value as ComponentJson;
  if (component.type === type) return true;
  const parts = component.decoders ?? component.pretokenizers;
  return Array.isArray(parts) && parts.some((part) => hasComponent(part, type));
}

/**
 * Byte lengths per token id for a byte-level BPE (GPT-2, Llama 3, Qwen, DeepSeek…): each character
 * of a vocabulary token stands for one byte, an added token for the UTF-8 of its content. Null
 * when the tokenizer is not byte-level.
 */
function byteLevelLengths(tokenizer: HfTokenizer, json: Record<string, unknown>): Int32Array | null {
  if (!hasComponent(json.pre_tokenizer, "ByteLevel") || !hasComponent(json.decoder, "ByteLevel")) return null;
  const vocab = tokenizer.get_vocab(true);
  let maxId = -1;
  for (const id of vocab.values()) if (id > maxId) maxId = id;
  const lengths = new Int32Array(maxId + 1).fill(-1);
  for (const [token, id] of vocab) lengths[id] = token.length;
  for (const [id, added] of tokenizer.get_added_tokens_decoder()) lengths[id] = Buffer.byteLength(added.content);
  return lengths;
}

/** UTF-16 ends of tokens given their byte lengths, or null when they do not add up to the text (then the generic path decides). */
function endsFromByteLengths(text: string, ids: number[], lengths: Int32Array): Uint32Array | null {
  const ends = new Uint32Array(ids.length);
  let position = 0;
  let bytesBefore = 0;
  let tokenEndBytes = 0;
  for (let index = 0; index < ids.length; index++) {
    const length = lengths[ids[index] ?? -1] ?? -1;
    if (length < 0) return null;
    tokenEndBytes += length;
    // Advance whole characters until the one holding the token's last byte is passed.
    while (bytesBefore < tokenEndBytes && position < text.length) {
      const step = utf8BytesAt(text, position);
      bytesBefore += step.bytes;
      position += step.units;
    }
    if (bytesBefore < tokenEndBytes) return null;
    ends[index] = position;
  }
  return position === text.length && bytesBefore === tokenEndBytes ? ends : null;
}

/**
 * Ends of tokens for any tokenizer: each token's text is what an incremental detokenizer (the one
 * engines stream with) emits when the token arrives, found by decoding a short window before it,
 * then aligned onto the original text.
 */
function endsFromDecoding(tokenizer: HfTokenizer, text: string, ids: number[]): Uint32Array {
  const decode = (from: number, to: number): string =>
    tokenizer.decode(ids.slice(from, to), { skip_special_tokens: false, clean_up_tokenization_spaces: false });
  const decodedEnds = new Uint32Array(ids.length);
  let decoded = "";
  let prefix = 0;
  let read = 0;
  let prefixText = "";
  for (let index = 0; index < ids.length; index++) {
    const windowText = decode(prefix, index + 1);
    if (windowText.length > prefixText.length && !windowText.endsWith("\uFFFD")) {
      decoded += windowText.slice(prefixText.length);
      prefix = read;
      read = index + 1;
      prefixText = decode(prefix, read);
    }
    decodedEnds[index] = decoded.length;
  }
  return alignDecodedOffsets(decoded, text, decodedEnds);
}

/**
 * A TokenCounter over a parsed tokenizer.json, with @huggingface/tokenizers (pure JavaScript, no
 * download). Special tokens are not added: the count is of the text the engine streamed.
 */
export function createTokenCounter(json: Record<string, unknown>, options: { sha256: string; source: string }): TokenCounter {
  const tokenizer = createHfTokenizer(json);
  const lengths = byteLevelLengths(tokenizer, json);
  return {
    sha256: options.sha256,
    source: options.source,
    count(text: string): CountedText {
      if (text.length === 0) return { ids: new Int32Array(0), ends: new Uint32Array(0) };
      const ids = tokenizer.encode(text, { add_special_tokens: false }).ids;
      const ends = (lengths && endsFromByteLengths(text, ids, lengths)) ?? endsFromDecoding(tokenizer, text, ids);
      return { ids: Int32Array.from(ids), ends };
    },
  };
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}
