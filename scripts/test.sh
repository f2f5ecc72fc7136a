#!/usr/bin/env bash
# Builds spmma (scripts/build.sh, which fetches cuSPARSELt for the cusparselt baseline plugin) and
# runs the whole test suite. Fetches from PyPI what the tests need and the toolkit lacks, into
# .tools/: cuobjdump + nvdisasm (the tests that disassemble the embedded cubins), numpy (the .npy
# round trip). Installs the Debian packages of the tools the tests drive: xmllint
# (libxml2-utils: the JUnit files against tests/schemas/junit.xsd) and chromium (headless: the
# charts of spmma report).
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/debian-packages.sh
install_missing_debian_packages libxml2-utils
if ! command -v chromium >/dev/null && ! command -v chromium-browser >/dev/null && ! command -v google-chrome >/dev/null; then
  install_missing_debian_packages chromium
fi

if [ ! -x .tools/nvidia/cu13/bin/cuobjdump ] || [ ! -x .tools/nvidia/cu13/bin/nvdisasm ]; then
  python3 -m pip install --quiet --disable-pip-version-check --target .tools nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm
fi
if ! python3 -c "import numpy" 2>/dev/null && [ ! -d .tools/python/numpy ]; then
  python3 -m pip install --quiet --disable-pip-version-check --target .tools/python numpy
fi
export PYTHONPATH="$PWD/.tools/python${PYTHONPATH:+:$PYTHONPATH}"

scripts/build.sh
ctest --preset default
