#!/usr/bin/env bash
# Builds spmma and runs the whole test suite. Fetches from PyPI what the tests need and the
# toolkit lacks: cuobjdump + nvdisasm (the tests that disassemble the embedded cubins) and numpy
# (the .npy round trip), into .tools/.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x .tools/nvidia/cu13/bin/cuobjdump ] || [ ! -x .tools/nvidia/cu13/bin/nvdisasm ]; then
  python3 -m pip install --quiet --disable-pip-version-check --target .tools nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm
fi
if ! python3 -c "import numpy" 2>/dev/null && [ ! -d .tools/python/numpy ]; then
  python3 -m pip install --quiet --disable-pip-version-check --target .tools/python numpy
fi
export PYTHONPATH="$PWD/.tools/python${PYTHONPATH:+:$PYTHONPATH}"

scripts/build.sh
ctest --preset default
