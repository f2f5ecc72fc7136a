#!/usr/bin/env bash
# vendor_plugin_test.sh BUILD_DIR EXAMPLE_DIR WORK_DIR
set -euo pipefail
build=$1 example=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
prefix="$work/prefix"

echo "== install spmma into $prefix"
cmake --install "$build" --prefix "$prefix" > "$work/install.log"
test -x "$prefix/bin/spmma"
test -f "$prefix/include/spmma/plugin.h"
test -f "$prefix/lib/cmake/spmma/spmmaConfig.cmake"

echo "== the installed spmma finds its installed plugins with no environment variable"
env -u SPMMA_PLUGIN_PATH "$prefix/bin/spmma" plugins | tee "$work/plugins.txt"
grep -q "ready on host CPU" "$work/plugins.txt"

echo "== build the example against the installed package only"
cmake -S "$example" -B "$work/example" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release > "$work/configure.log"
cmake --build "$work/example" > "$work/build.log"
mkdir -p "$work/dropin"
cp "$work/example/spmma-acme.so" "$work/dropin/"

echo "== run it from a plugin folder, verified"
env -u SPMMA_PLUGIN_PATH "$prefix/bin/spmma" gemm --m 61 --n 37 --k 96 --dtype f16,s8 --beta 1 --plugin-dir "$work/dropin" \
    --plugin acme --verify full --no-progress --json "$work/acme.jsonl"
test "$(grep -c '"status":"verified"' "$work/acme.jsonl")" -eq 2
grep -q '"vendor":"ACME Sparse Corp."' "$work/acme.jsonl"

echo "== the conformance suite passes it (spmma check-plugin, exit 0)"
env -u SPMMA_PLUGIN_PATH "$prefix/bin/spmma" check-plugin "$work/dropin/spmma-acme.so" --json "$work/check.json" | tee "$work/check.txt"
grep -q "11 passed, 0 failed, 0 skipped" "$work/check.txt"
grep -q '"passed": true' "$work/check.json"

echo "== cmake --install puts it into the installed spmma's plugin folder"
cmake --install "$work/example" > /dev/null
test -f "$prefix/lib/spmma/plugins/spmma-acme.so"
env -u SPMMA_PLUGIN_PATH "$prefix/bin/spmma" plugins | grep -q "^acme "

echo "== installed, it still passes (its name is compared with the other installed plugins, not itself)"
env -u SPMMA_PLUGIN_PATH "$prefix/bin/spmma" check-plugin "$prefix/lib/spmma/plugins/spmma-acme.so" > "$work/check-installed.txt"
grep -q "11 passed, 0 failed, 0 skipped" "$work/check-installed.txt"
echo "vendor plugin: OK"
