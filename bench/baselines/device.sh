#!/usr/bin/env bash
# The baseline plugins on a GPU machine, in one run, from the repository root with the build
# folder copied there (default build/; BUILD=build-baselines to use another):
#   1. what the plugins need (ldd) and what spmma sees (plugins --verbose);
#   2. correctness: cublas and cusparselt, odd and even sizes, f16/bf16/e4m3/s8, full verification;
#   3. the standard shape set with --baseline cublas (records in $OUT/baselines.jsonl), then
#      PyTorch's peers on the same GPU (bench/baselines/peers.py, $OUT/peers.json);
#   4. a comparison table, printed last.
# PLUGINS=sm90a,cublas,cusparselt adds plugins to step 3. Logs of every step go under $OUT.
# STAGES=info,correct,shapes,peers,compare (the default: all) picks steps, e.g. to split the
# work over two runs. Stage time limits (T_CORRECT=100, T_SHAPES=330, T_PEERS=140 s) keep one
# run under 10 minutes; a stage cut short keeps the records it streamed, and
# the table shows what there is. (Most of the shape set's time is spmma generating and checking
# operands on the host: 16384^3 and the 70B layers are 0.3-0.5 G elements per type.)
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
OUT=${OUT:-$PWD/out-baselines}
PLUGINS=${PLUGINS:-cublas,cusparselt}
STAGES=${STAGES:-info,correct,shapes,peers,compare}
mkdir -p "$OUT"
SPMMA="$BUILD/bin/spmma"
PLUGIN_DIR="$BUILD/lib/spmma/plugins"
start=$SECONDS
stage() { echo; echo "=== $1 (t=$((SECONDS - start))s)"; }
want() { [[ ",$STAGES," == *",$1,"* ]]; }

if want info; then
  stage "device"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -4
  stage "ldd of the baseline plugins"
  for p in cublas cusparselt; do
    echo "--- spmma-$p.so"
    ldd "$PLUGIN_DIR/spmma-$p.so" 2>&1
  done
  stage "spmma plugins --verbose"
  "$SPMMA" plugins --verbose 2>&1 | tee "$OUT/plugins.txt"
fi

if want correct; then
  stage "correctness: cublas, cusparselt, 1000/4096 x 1000/4096 x 1024, f16 bf16 e4m3 s8, full verification"
  timeout "${T_CORRECT:-100}" "$SPMMA" gemm --plugin cublas,cusparselt --m 1000,4096 --n 1000,4096 --k 1024 \
    --dtype f16,bf16,e4m3,s8 --verify full --warmup 1 --iterations 3 --no-progress \
    --json "$OUT/correctness.jsonl" 2>&1 | tee "$OUT/correctness.txt"
  echo "exit ${PIPESTATUS[0]} (0: all verified; 124: cut at ${T_CORRECT:-100} s)"
fi

if want shapes; then
  stage "standard shape set: $PLUGINS, --baseline cublas"
  timeout "${T_SHAPES:-330}" "$SPMMA" run configs/llm-shapes.toml --plugin "$PLUGINS" --baseline cublas --no-progress \
    --json "$OUT/baselines.jsonl" 2>&1 | tee "$OUT/baselines.txt"
  echo "exit ${PIPESTATUS[0]} (124: cut at ${T_SHAPES:-330} s; the records streamed so far are kept)"
fi

if want peers; then
  stage "PyTorch peers (cuBLAS dense, cuSPARSELt) on the same GPU"
  timeout "${T_PEERS:-140}" python3 bench/baselines/peers.py 2>&1 | tee "$OUT/peers.txt"
fi

if want compare; then
  stage "comparison (TFLOP/s, dense-equivalent 2mnk/t)"
  if [ -f "$OUT/baselines.jsonl" ] && [ -f "$OUT/peers.json" ]; then
    python3 bench/baselines/compare.py "$OUT/baselines.jsonl" "$OUT/peers.json" | tee "$OUT/compare.txt"
  else
    echo "missing $OUT/baselines.jsonl or $OUT/peers.json"
  fi
fi
echo "total $((SECONDS - start))s"
