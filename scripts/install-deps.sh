#!/usr/bin/env bash
# Installs what gshmem needs to build and test on Debian 12 / Ubuntu 22.04+ (run as root or
# with sudo). Idempotent. --minimal: only what building the library and running an example needs
# (scripts/quickstart.sh); the test tools (MPI, GoogleTest, clang, CMake, NVSHMEM's headers) come
# with the full install (scripts/test.sh, .ci/run).
set -euo pipefail
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
minimal=0
[ "${1:-}" = --minimal ] && minimal=1
pkgs=(build-essential pkg-config ninja-build python3 python3-pip libpmix-dev libucx-dev)
[ $minimal = 1 ] || pkgs+=(ucx-utils libgtest-dev openmpi-bin libopenmpi-dev iproute2 cmake clang lld clang-format)
missing=()
for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ "${#missing[@]}" -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  if ! { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq "${missing[@]}"; }; then
    # Offline machines that already have a toolchain (e.g. a GPU host with meson from pip) can go on;
    # the build reports what is really missing.
    echo "install-deps: warning: could not install ${missing[*]}; continuing with what is installed" >&2
  fi
fi
ensure_meson() {
  # Meson >= 1.5 (Debian 12 ships 1.0.1, which does not device-link CUDA correctly).
  local need=1 v
  if command -v meson >/dev/null 2>&1; then
    v=$(meson --version)
    if [ "$(printf '%s\n1.5.0\n' "$v" | sort -V | head -1)" = "1.5.0" ]; then need=0; fi
  fi
  if [ "$need" = 1 ]; then
    python3 -m pip install -q 'meson>=1.5,<2' 2>/dev/null ||
      python3 -m pip install -q --break-system-packages 'meson>=1.5,<2'
    hash -r
  fi
  echo "install-deps: meson $(meson --version), ninja $(ninja --version)"
}
if [ $minimal = 1 ]; then
  ensure_meson
  exit 0
fi
# The sanitizer job's fuzz targets need clang's libFuzzer runtime (libclang-rt-N-dev, N = clang's
# major version; Debian 12: 14).
if command -v clang >/dev/null 2>&1; then
  cmaj=$(clang -dumpversion | cut -d. -f1)
  if ! echo 'extern "C" int LLVMFuzzerTestOneInput(const char*, unsigned long) { return 0; }' |
      clang++ -x c++ -fsanitize=fuzzer -o /dev/null - >/dev/null 2>&1; then
    $SUDO apt-get install -y -qq "libclang-rt-$cmaj-dev" >/dev/null 2>&1 ||
      echo "install-deps: warning: no libFuzzer for clang $cmaj (libclang-rt-$cmaj-dev)" >&2
  fi
fi
ensure_meson
# The Python package check creates a virtual environment (tests/python_check.sh): Debian's own
# python3 needs python3-venv for that (a pyenv or other python3 brings venv with it).
if ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
  $SUDO apt-get install -y -qq python3-venv >/dev/null 2>&1 ||
    echo "install-deps: warning: python3 has no venv/ensurepip (python3-venv)" >&2
fi
# NVSHMEM 3.4.5's headers for the API-coverage test of the compatibility headers
# (tests/nvshmem/check_coverage.py, docs/nvshmem.md): the nvidia-nvshmem-cu13 package, installed
# into .deps/nvshmem (not into the system Python). Offline machines skip the test.
ROOT=$(cd "$(dirname "$0")/.." && pwd)
if [ ! -f "$ROOT/.deps/nvshmem/nvidia/nvshmem/include/nvshmem.h" ]; then
  python3 -m pip install -q --no-deps --target "$ROOT/.deps/nvshmem" 'nvidia-nvshmem-cu13==3.4.5' >/dev/null 2>&1 ||
    python3 -m pip install -q --no-deps --break-system-packages --target "$ROOT/.deps/nvshmem" 'nvidia-nvshmem-cu13==3.4.5' >/dev/null 2>&1 ||
    echo "install-deps: warning: could not install nvidia-nvshmem-cu13==3.4.5 (the NVSHMEM coverage test will skip)" >&2
fi
