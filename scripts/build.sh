#!/usr/bin/env bash
# Builds spmma (Release) in build/, installing the Debian packages it needs when they are missing.
# The GPU plugins are built when nvcc (CUDA 12.8 or newer) is found; configure says which are
# skipped and `spmma plugins` lists them with how to get them. With nvcc, cuSPARSELt's header
# (the cusparselt plugin's only build dependency) is fetched from PyPI into .tools/python unless
# CUSPARSELT_ROOT names an install.
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/debian-packages.sh
install_missing_debian_packages cmake ninja-build g++ libboost-dev libcli11-dev libfmt-dev catch2 libtomlplusplus-dev nlohmann-json3-dev

fetch_cusparselt() {
  command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ] || return 0
  [ -z "${CUSPARSELT_ROOT:-}" ] || return 0
  if [ -f .tools/python/nvidia/cu13/include/cusparseLt.h ] || [ -f .tools/python/nvidia/cusparselt/include/cusparseLt.h ]; then
    return 0
  fi
  if ! python3 -m pip --version >/dev/null 2>&1; then
    echo "spmma: pip is missing (apt-get install python3-pip): cuSPARSELt's header cannot be fetched; the cusparselt plugin is skipped"
    return 0
  fi
  echo "spmma: fetching cuSPARSELt (PyPI nvidia-cusparselt-cu13) into .tools/python for the cusparselt plugin"
  python3 -m pip install --quiet --disable-pip-version-check --target .tools/python nvidia-cusparselt-cu13 ||
    echo "spmma: pip could not fetch nvidia-cusparselt-cu13: the cusparselt plugin is skipped"
}
fetch_cusparselt

cmake --preset default
cmake --build --preset default -j "$(nproc)"
