#!/usr/bin/env bash
# Installs every Debian package the build and the tests need. Idempotent: does
# nothing (not even apt-get update) when all are installed already.
set -euo pipefail

packages=(
  cmake ninja-build g++ python3 xz-utils gzip
  clang-14 libclang-14-dev llvm-14-dev llvm-14-tools libclang-rt-14-dev
  libboost-program-options-dev libboost-graph-dev
  zlib1g-dev liblzma-dev libgtest-dev nlohmann-json3-dev libxxhash-dev
  python3-matplotlib python3-psutil python3-venv
)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
echo "setup: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
if ! command -v nvcc >/dev/null && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "setup: the CUDA toolkit (nvcc) is required; install it under /usr/local/cuda" >&2
  exit 1
fi
