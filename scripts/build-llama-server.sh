#!/usr/bin/env bash
# Builds llama.cpp's llama-server as speedgate's real-engine tests run it (../shared/engines/llama-cpp/):
# CPU only, portable x86-64 with AVX2/FMA/F16C/BMI2, ggml linked statically, no network features. The
# source is the git bundle the npm package node-llama-cpp@3.21.1 ships (llama/gitRelease.bundle), so the
# npm registry is all it needs: llama.cpp commit 80fb11ac73e66d89eae2c6a91d8a77428fa733ed.
#
#   scripts/build-llama-server.sh [OUT_DIR]      # default OUT_DIR: .speedgate/llama-cpp
#
# Then run the tests with SPEEDGATE_LLAMA_CPP_DIR=OUT_DIR (with tiny-words.gguf beside the server:
# scripts/make-tiny-model.py makes it). Needs npm, git, cmake and g++ (Debian: cmake g++ git); a full
# build takes 25-45 minutes on 2 cores, a few on many. Environment:
#   LLAMA_CPP_WORK=DIR            keep the source and build tree there (default: a temporary folder,
#                                 removed at the end); with a kept tree, rebuilding after a one-line
#                                 change to a server source file takes about a minute
#   LLAMA_CPP_CONFIGURE_ONLY=1    stop once cmake has configured the tree (a quick check of the recipe)
#   JOBS=N                        parallel compile jobs (default: the number of CPUs)
set -euo pipefail

NODE_LLAMA_CPP_VERSION=3.21.1
LLAMA_CPP_COMMIT=80fb11ac73e66d89eae2c6a91d8a77428fa733ed

repo_root="$(cd "$(dirname "$0")/.." && pwd)"
out_dir="$(mkdir -p "${1:-$repo_root/.speedgate/llama-cpp}" && cd "${1:-$repo_root/.speedgate/llama-cpp}" && pwd)"
jobs="${JOBS:-$(nproc)}"

for tool in npm git cmake g++ tar; do
  command -v "$tool" >/dev/null || { echo "build-llama-server: $tool is missing (Debian: apt-get install cmake g++ git; npm comes with Node)" >&2; exit 1; }
done

if [ -n "${LLAMA_CPP_WORK:-}" ]; then
  work="$(mkdir -p "$LLAMA_CPP_WORK" && cd "$LLAMA_CPP_WORK" && pwd)"
else
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
fi
src="$work/llama.cpp"

if [ ! -d "$src/.git" ]; then
  echo "build-llama-server: fetching node-llama-cpp@$NODE_LLAMA_CPP_VERSION from the npm registry"
  (cd "$work" && npm pack "node-llama-cpp@$NODE_LLAMA_CPP_VERSION" --silent >/dev/null)
  tar -xzf "$work/node-llama-cpp-$NODE_LLAMA_CPP_VERSION.tgz" -C "$work" package/llama/gitRelease.bundle
  git -c advice.detachedHead=false clone --quiet "$work/package/llama/gitRelease.bundle" "$src"
  rm -rf "$work/package" "$work/node-llama-cpp-$NODE_LLAMA_CPP_VERSION.tgz"
fi
actual="$(git -C "$src" rev-parse HEAD)"
if [ "$actual" != "$LLAMA_CPP_COMMIT" ]; then
  echo "build-llama-server: the bundle holds $actual, not $LLAMA_CPP_COMMIT: the tests' figures were measured on the latter" >&2
  exit 1
fi

echo "build-llama-server: configuring llama.cpp $LLAMA_CPP_COMMIT in $src/build"
cmake -S "$src" -B "$src/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF -DLLAMA_OPENSSL=OFF \
  -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_APP=OFF -DLLAMA_BUILD_UI=OFF \
  -DLLAMA_USE_PREBUILT_UI=OFF -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON \
  >"$work/cmake-configure.log" 2>&1 || { tail -n 30 "$work/cmake-configure.log" >&2; exit 1; }
if [ "${LLAMA_CPP_CONFIGURE_ONLY:-}" = "1" ]; then
  echo "build-llama-server: configured (LLAMA_CPP_CONFIGURE_ONLY=1): $src/build"
  exit 0
fi

echo "build-llama-server: building llama-server with $jobs jobs (25-45 minutes on 2 cores)"
cmake --build "$src/build" --target llama-server -j "$jobs"
cp "$src/build/bin/llama-server" "$out_dir/llama-server"
echo "build-llama-server: $out_dir/llama-server"
"$out_dir/llama-server" --version 2>&1 | head -n 2
