#!/usr/bin/env bash
# Builds spmma (Release) in build/, installing the Debian packages it needs when they are missing.
# The GPU plugins are built when nvcc (CUDA 12.8 or newer) is found; configure says which are skipped.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake ninja-build g++ libboost-dev libcli11-dev libfmt-dev catch2 libtomlplusplus-dev nlohmann-json3-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "spmma: installing the Debian packages ${missing[*]}"
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  $sudo apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi

cmake --preset default
cmake --build --preset default -j "$(nproc)"
