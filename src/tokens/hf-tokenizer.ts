import * as tokenizers from "@huggingface/tokenizers";

/**
 * The part of @huggingface/tokenizers speedgate uses, typed here: the package's declaration files
 * import their siblings without extensions, which Node's ESM resolution (and so this project's
 * TypeScript settings) cannot follow, so its own types arrive unresolved.
 */
export interface HfTokenizer {
  encode(text: string, options: { add_special_tokens: boolean }): { ids: number[] };
  decode(ids: number[], options: { skip_special_tokens: boolean; clean_up_tokenization_spaces: boolean }): string;
  get_vocab(withAddedTokens: boolean): Map<string, number>;
  get_added_tokens_decoder(): Map<number, { content: string }>;
}

type TokenizerConstructor = new (tokenizerJson: object, tokenizerConfig: object) => HfTokenizer;

/** A tokenizer from a parsed tokenizer.json; tokenizer_config.json is not needed to count text. */
export function createHfTokenizer(json: object): HfTokenizer {
  const Tokenizer = (tokenizers as unknown as { Tokenizer: TokenizerConstructor }).Tokenizer;
  return new Tokenizer(json, {});
}
