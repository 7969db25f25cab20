#!/usr/bin/env bash
# Installs every package PASTA needs on a fresh Debian 12 machine of this kind
# (Open MPI for the MPI test, tests/mpi/; Chromium for the HTML report's
# browser test and pandas for python/pasta_profile, issue [source-view]).
# ccache for the CMake test with a ccache compiler launcher (link-cmake-zlib:
# CMake checks the compiler through the launcher).
# Safe to run again: apt-get skips what is already installed.
set -euo pipefail

packages=(
  clang-22 llvm-22-dev libclang-22-dev lld-22 llvm-22-tools libclang-rt-22-dev clang-tools-22
  libomp-22-dev
  cmake ninja-build make python3 clang-format-22 ccache
  libdwarf-dev libelf-dev libjansson-dev zlib1g-dev libzstd-dev
  openmpi-bin libopenmpi-dev
  chromium python3-pandas
  hipcc libamdhip64-dev rocm-device-libs
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "pasta setup: all packages present"
  exit 0
fi

sudo_cmd=""
[ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
echo "pasta setup: installing ${missing[*]}"
$sudo_cmd apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
