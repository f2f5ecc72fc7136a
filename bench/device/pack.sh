#!/usr/bin/env bash
# On the build machine, after `cmake --build build`: copy what the device scripts need into
# .deploy/build (git-ignored; copied to the GPU machine, where bench/device/prepare.sh lays it
# out as build/). The copy is kept under 64 MiB: the sm120a plugin (no sm_120 GPU to run it on)
# stays behind.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
rm -rf .deploy
mkdir -p .deploy/build/bin .deploy/build/lib/spmma/plugins
for b in spmma test_core test_sm80 test_sm90a test_sm100a test_baselines test_epilogue spmma-bench-sm90a-wgmma spmma-bench-sm80-mma spmma-bench-generate spmma-bench-dram; do
    [ -x "$BUILD/bin/$b" ] && cp "$BUILD/bin/$b" .deploy/build/bin/ || echo "pack.sh: $BUILD/bin/$b not built, left out"
done
# The hand-built CUTLASS peer (bench/cutlass/build.sh), where there is one.
if [ -x "$BUILD/bench-cutlass/cutlass_sm80_sparse" ]; then
    mkdir -p .deploy/build/bench-cutlass && cp "$BUILD/bench-cutlass/cutlass_sm80_sparse" .deploy/build/bench-cutlass/
fi
# The two-device test plugins of tests/faults that bench/devices/two_gpu.sh runs (a fault on
# device 1 only, and its well-behaved twin), where the build tree has them.
for f in segv_run_device1 good_two_devices; do
    src=$BUILD/tests/faults/plugins/$f
    if [ -d "$src" ]; then
        mkdir -p .deploy/build/tests/faults/plugins/$f && cp "$src"/*.so .deploy/build/tests/faults/plugins/$f/
    else
        echo "pack.sh: $src not built, left out (target spmma_fault_$f)"
    fi
done
for f in "$BUILD"/lib/spmma/plugins/*.so; do
    case $f in *sm120a*) ;; *) cp "$f" .deploy/build/lib/spmma/plugins/ ;; esac
done
du -sh .deploy
