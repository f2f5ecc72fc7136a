#!/usr/bin/env bash
# Builds bench/cutlass/cutlass_sm80_sparse (a peer, not part of spmma's build) against a CUTLASS
# checkout: CUTLASS_DIR must hold include/ and tools/util/include/ (header-only). SASS for sm_90
# (the H100/H200) from compute_80 code, as the sm80 plugin's; the CUDA runtime is linked
# statically, so the binary runs on the GPU machine as copied.
#   CUTLASS_DIR=/path/to/cutlass bench/cutlass/build.sh      (-> build/bench-cutlass/)
# then bench/device/pack.sh carries it; on the GPU machine (after bench/device/prepare.sh):
#   build/bench-cutlass/cutlass_sm80_sparse [MxNxK ...]      (default: the standard shape set)
# CUTLASS itself can come from the library's fetch tool (github:NVIDIA/cutlass; `git archive HEAD
# include tools/util/include` of the snapshot is all it needs).
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${CUTLASS_DIR:?CUTLASS_DIR=<a CUTLASS checkout with include/ and tools/util/include/>}"
OUT=${OUT:-build/bench-cutlass}
mkdir -p "$OUT"
nvcc -std=c++17 -O3 -gencode=arch=compute_80,code=sm_90 -I"$CUTLASS_DIR/include" -I"$CUTLASS_DIR/tools/util/include" \
    --expt-relaxed-constexpr -Xptxas=--suppress-sparse-mma-advisory-info bench/cutlass/cutlass_sm80_sparse.cu -o "$OUT/cutlass_sm80_sparse"
echo "built $OUT/cutlass_sm80_sparse"
