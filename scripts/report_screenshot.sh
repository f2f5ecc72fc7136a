#!/usr/bin/env bash
# Remakes docs/report-compare.png, the README's picture of `spmma report OLD NEW`: the test that
# proves the page's first screen names a night 30 % slower in f16 keeps its screenshot there.
# Usage: scripts/report_screenshot.sh [BUILD_DIR]   (default build-no-cuda; test_app must be built)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-no-cuda}
test_app=$(find "$build" -name test_app -type f -perm -u+x | head -n 1)
if [[ -z $test_app ]]; then
    echo "report_screenshot.sh: no test_app under $build: cmake --build $build --target test_app" >&2
    exit 2
fi
png=$root/docs/report-compare.png
SPMMA_SCREENSHOT=$png "$test_app" "[screenshot]"
# Fewer colours keep the file small where pngquant is installed (the picture reads the same).
if command -v pngquant > /dev/null; then pngquant --force --skip-if-larger --output "$png" 64 -- "$png" || true; fi
echo "$png: $(stat -c %s "$png") bytes"
