#!/usr/bin/env bash
# Builds spmma (scripts/build.sh, which fetches cuSPARSELt for the cusparselt baseline plugin) and
# runs the whole test suite. Fetches from PyPI what the tests need and the toolkit lacks, into
# .tools/: cuobjdump + nvdisasm (the tests that disassemble the embedded cubins), numpy (the .npy
# round trip, the weight test files) and safetensors (the independent reader those files are
# checked against). Installs the Debian packages of the tools the tests drive: xmllint
# (libxml2-utils: the JUnit files against tests/schemas/junit.xsd), chromium (headless: the
# charts of spmma report), clang-14 and its runtime libraries (libFuzzer and the sanitizers: the
# fuzz tests of tests/fuzz), and, where apt-get runs as root, Slurm and munge (tests/slurm starts
# a one-node cluster; without them that test says why and is skipped).
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/debian-packages.sh
install_missing_debian_packages libxml2-utils clang-14 libclang-rt-14-dev
if ! command -v chromium >/dev/null && ! command -v chromium-browser >/dev/null && ! command -v google-chrome >/dev/null; then
  install_missing_debian_packages chromium
fi
slurm_found=1
for p in slurmctld slurmd sbatch munged; do PATH="$PATH:/usr/sbin" command -v "$p" >/dev/null || slurm_found=0; done
if [ "$slurm_found" -eq 0 ]; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    # NOTES: without Slurm's recommended plugins (hdf5, ipmi, rocm-smi, ...): 8 packages, not 41.
    install_missing_debian_packages --no-install-recommends slurmctld slurmd slurm-client munge ||
      echo "spmma: Slurm could not be installed: the Slurm test will be skipped"
  else
    echo "spmma: Slurm is not installed and apt-get cannot run as root here: the Slurm test will be skipped"
  fi
fi

if [ ! -x .tools/nvidia/cu13/bin/cuobjdump ] || [ ! -x .tools/nvidia/cu13/bin/nvdisasm ]; then
  python3 -m pip install --quiet --disable-pip-version-check --target .tools nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm
fi
if ! python3 -c "import numpy" 2>/dev/null && [ ! -d .tools/python/numpy ]; then
  python3 -m pip install --quiet --disable-pip-version-check --target .tools/python numpy
fi
if ! python3 -c "import safetensors" 2>/dev/null && [ ! -d .tools/python/safetensors ]; then
  python3 -m pip install --quiet --disable-pip-version-check --target .tools/python safetensors
fi
export PYTHONPATH="$PWD/.tools/python${PYTHONPATH:+:$PYTHONPATH}"

scripts/build.sh
ctest --preset default
