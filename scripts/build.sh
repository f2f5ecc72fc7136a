#!/usr/bin/env bash
# Builds spmma (Release) in build/, installing the Debian packages it needs when they are missing.
# The GPU plugins are built when nvcc (CUDA 12.8 or newer) is found; configure says which are skipped.
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/debian-packages.sh
install_missing_debian_packages cmake ninja-build g++ libboost-dev libcli11-dev libfmt-dev catch2 libtomlplusplus-dev nlohmann-json3-dev

cmake --preset default
cmake --build --preset default -j "$(nproc)"
