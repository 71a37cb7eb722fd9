#!/usr/bin/env bash
# Runs prebuilt GPU programs with every PE on one shared GPU under MPS, split into emulated nodes
# that reach each other through the proxy and UCX over TCP (docs/testing.md). For the device tool's
# single-GPU host: the binaries are built on the development machine (a CUDA + UCX build directory,
# packed with `pack`), carried along with the UCX wheel's copy, and run here without a build.
#
#   scripts/mps_emu.sh pack BUILD OUT.tar.xz TARGET...   # on the development machine
#   BINS=OUT.tar.xz STEPS=steps.sh scripts/mps_emu.sh    # on the GPU host
#
# BUILD must be configured at the same absolute path on both machines (/tmp/gb: the binaries find
# libgshmem through their build-tree rpath). UCX: UCX_TAR (default .deps/ucx-cu13.tar.xz, the
# libucx-cu13 wheel's lib/ and libs/). STEPS is a bash file of lines
#   [E="VAR=value ..."] run NAME CAP_S NPES NODES PROGRAM [ARGS...]
# each run's output goes to $OUT/NAME.txt, and one line per run to $OUT/log.txt. A run that prints
# the library's stall message or passes CAP_S is killed and the MPS daemon restarted (a client
# killed mid-kernel leaves the daemon refusing others). DEADLINE (s, default 560) ends the list.
set -u
if [ "${1:-}" = pack ]; then
  build=$2 out=$3 && shift 3
  lib=$(readlink "$build/libgshmem.so.0") || { echo "mps_emu: no libgshmem.so.0 in $build"; exit 1; }
  tar cJf "$out" -C "$build" libgshmem.so.0 "$lib" runtime/oshrun "$@"
  exit $?
fi
OUT=${OUT:-/tmp/mps-emu}; mkdir -p "$OUT"; L=$OUT/log.txt
B=${B:-/tmp/gb}
export NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1 TORCH_SYMM_MEM_DISABLE_MULTICAST=1
t0=$(date +%s)
if ! { mkdir -p /tmp/ucx "$B" && tar xJf "${UCX_TAR:-.deps/ucx-cu13.tar.xz}" -C /tmp/ucx &&
  tar xJf "${BINS:?BINS=pack.tar.xz}" -C "$B"; }; then
  echo "mps_emu: could not unpack UCX or $BINS" | tee -a "$L"
  exit 1
fi
export GSHMEM_UCX_LIBRARY=/tmp/ucx/lib/libucp.so.0 LD_LIBRARY_PATH=/tmp/ucx/lib:/tmp/ucx/libs
export GSHMEM_TEST_SHARED_GPU=1 CUDA_MPS_PIPE_DIRECTORY=/tmp/gshmem-mps CUDA_MPS_LOG_DIRECTORY=/tmp/gshmem-mps-log
mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
nvidia-smi -L >> "$L"
mps_start() { nvidia-cuda-mps-control -d && sleep 1; }
mps_stop() { echo quit | nvidia-cuda-mps-control; sleep 3; }
mps_start || { echo "mps_emu: the MPS daemon did not start" | tee -a "$L"; exit 1; }
trap mps_stop EXIT
# MPS clients share one pool of hardware work queues: 16 each keeps the proxy's copies out of the
# queue of a kernel that waits for them (docs/testing.md).
export UCX_TLS=tcp,cuda_copy UCX_WARN_UNUSED_ENV_VARS=n GSHMEM_TRANSPORT=ucx SHMEM_SYMMETRIC_SIZE=256M
export GSHMEM_TEST_PROGRESS=1 CUDA_DEVICE_MAX_CONNECTIONS=16
run() {  # name cap np nodes program [args...]; extra environment in E
  local name=$1 cap=$2 np=$3 nodes=$4; shift 4
  local left=$((${DEADLINE:-560} - ($(date +%s) - t0)))
  [ "$left" -lt 20 ] && { echo "SKIP $name (deadline)" | tee -a "$L"; return; }
  [ "$cap" -gt "$left" ] && cap=$left
  local s res=
  s=$(date +%s)
  # shellcheck disable=SC2086  # E is a list of VAR=value words
  env ${E:-} GSHMEM_EMULATE_NODES="$nodes" "$B/runtime/oshrun" -np "$np" "$@" > "$OUT/$name.txt" 2>&1 &
  local job=$!
  while :; do
    if ! kill -0 $job 2>/dev/null; then wait $job; res="exit $?"; break; fi
    if grep -q "inside one call for" "$OUT/$name.txt"; then res=HANG; break; fi
    if [ $(($(date +%s) - s)) -ge "$cap" ]; then res=TIMEOUT; break; fi
    sleep 1
  done
  if [ "$res" = HANG ] || [ "$res" = TIMEOUT ]; then
    kill -TERM $job 2>/dev/null; sleep 2; pkill -9 -f "$B/"; wait 2>/dev/null
    mps_stop; mps_start
  fi
  echo "$name: $res in $(($(date +%s) - s)) s; $(tail -1 "$OUT/$name.txt" | cut -c1-200)" | tee -a "$L"
}
# shellcheck disable=SC1090
. "${STEPS:?STEPS=file of run lines}"
echo "total $(($(date +%s) - t0)) s" | tee -a "$L"
