#!/usr/bin/env bash
# On the GPU machine, from the repository root: make the copied build usable where the
# scripts and test binaries expect it (build/ in the repo, and the repo at the path the test
# binaries were compiled with), and print what the binaries link against.
set -u
[ -d build ] || ln -sfn .deploy/build build
src=${SPMMA_BUILD_SOURCE:-/work/main}
if [ "$(cd "$(dirname "$src")" 2>/dev/null && pwd)/$(basename "$src")" != "$PWD" ] && [ ! -e "$src" ]; then
  mkdir -p "$(dirname "$src")" && ln -sfn "$PWD" "$src"
fi
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv,noheader
ldd build/bin/spmma build/lib/spmma/plugins/*.so | grep -E "not found|=>" | grep -vE "libc.so|libm.so|libgcc_s|libstdc|libgomp|ld-linux|libdl|libpthread|librt" || true
