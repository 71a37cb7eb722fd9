#!/usr/bin/env bash
# One call on a GPU host whose time is short (the `device` tool): build what is asked, run named
# tests one by one and extra commands, each with a time cap, until a deadline; everything goes to
# one log ($OUT/calllog.txt, the tool returns few files), a summary line per test to stdout.
#
# Env:
#   OUT        log directory (the device tool sets it)
#   B          build directory (default /tmp/be; kept between calls only while the host stays warm)
#   UCX_PACK   a CUDA-aware UCX packed as scripts/gpu_host.sh describes (default .deps/ucx-cu13.tar.xz):
#              unpacked to /tmp/ucx, compiled against, loaded through GSHMEM_UCX_LIBRARY
#   TARGETS    ninja targets (default: everything)
#   PREBUILT   instead of building: a tar.xz of programs built on the development machine in a build
#              directory at the path $B (their rpath finds libgshmem there), unpacked into $B; pack
#              with `tar cJf F -C B libgshmem.so.0 libgshmem.so.0.1.0 runtime/oshrun PROGRAM...`
#              (docs/testing.md). Saves the device build (about 250 s on the one-GPU host).
#   TESTS      meson test names, whitespace-separated, run in order; CAP seconds each (default 120)
#   RUNS       shell commands, one per line, run in $B after the tests (RUN_CAP seconds each, default 120)
#   DEADLINE   seconds from the start after which no further test or command starts (default 540)
#   MPS        1: every PE shares one GPU (GSHMEM_TEST_SHARED_GPU=1) and tests and commands run under
#              an MPS daemon started after the build (kernels of PEs that wait on each other must run
#              at the same time; docs/testing.md), with CUDA_DEVICE_MAX_CONNECTIONS=16 unless set;
#              the daemon is stopped at the end
set -uo pipefail
t_start=$(date +%s)
OUT=${OUT:-/tmp/out}
B=${B:-/tmp/be}
LOG="$OUT/calllog.txt"
mkdir -p "$OUT"
export NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1 TORCH_SYMM_MEM_DISABLE_MULTICAST=1
export PATH=/usr/local/cuda/bin:$PATH
root="$(cd "$(dirname "$0")/.." && pwd)"
left() { echo $(( ${DEADLINE:-540} - ($(date +%s) - t_start) )); }
say() { echo "$*" | tee -a "$LOG"; }
{ nvidia-smi -L; git -C "$root" log --oneline -1 2>/dev/null; git -C "$root" status --short 2>/dev/null | head -30; } >> "$LOG" 2>&1
ucx_opt=()
pack=${UCX_PACK:-$root/.deps/ucx-cu13.tar.xz}
if [ -f "$pack" ]; then
  mkdir -p /tmp/ucx && { [ -f /tmp/ucx/lib/libucp.so.0 ] || tar xJf "$pack" -C /tmp/ucx; }
  export GSHMEM_UCX_LIBRARY=/tmp/ucx/lib/libucp.so.0
  export LD_LIBRARY_PATH=/tmp/ucx/lib:/tmp/ucx/libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  ucx_opt=(-Ducx=enabled -Ducx_include=/tmp/ucx/include)
fi
t0=$(date +%s)
if [ -n "${PREBUILT:-}" ]; then
  if ! { mkdir -p "$B" && tar xJf "$PREBUILT" -C "$B"; }; then say "could not unpack $PREBUILT"; exit 1; fi
elif [ ! -f "$B/build.ninja" ]; then
  meson setup "$B" "$root" -Dcuda=enabled -Dbuildtype=debugoptimized --prefix="$B/prefix" "${ucx_opt[@]}" >> "$LOG" 2>&1 ||
    { say "setup failed"; tail -30 "$LOG"; exit 1; }
fi
# shellcheck disable=SC2086
if [ -z "${PREBUILT:-}" ] && ! ninja -C "$B" ${TARGETS:-} > "$OUT/build.log" 2>&1; then
  say "build failed"; grep -E "error|FAILED" "$OUT/build.log" | head -30; exit 1
fi
say "build: $(( $(date +%s) - t0 )) s"
if [ "${MPS:-0}" = 1 ]; then
  # MPS clients share one pool of hardware work queues: with few, the proxy's streams queue behind a
  # kernel that waits for them (docs/testing.md). 16 each leaves room for 4 clients.
  export CUDA_DEVICE_MAX_CONNECTIONS=${CUDA_DEVICE_MAX_CONNECTIONS:-16}
  export GSHMEM_TEST_SHARED_GPU=1 CUDA_MPS_PIPE_DIRECTORY=/tmp/gshmem-mps CUDA_MPS_LOG_DIRECTORY=/tmp/gshmem-mps-log
  mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
  # Without the daemon the PEs' kernels only time-slice and the tests would hang to their caps.
  nvidia-cuda-mps-control -d >> "$LOG" 2>&1 || { say "could not start MPS"; exit 1; }
  trap 'echo quit | nvidia-cuda-mps-control > /dev/null 2>&1; sleep 2' EXIT
fi
# A client killed inside a kernel leaves the MPS daemon refusing the next ones: restart it.
mps_restart() {
  [ "${MPS:-0}" = 1 ] || return 0
  pkill -9 -f "$B/" 2>/dev/null; echo quit | nvidia-cuda-mps-control > /dev/null 2>&1; sleep 2
  nvidia-cuda-mps-control -d >> "$LOG" 2>&1 || say "could not restart MPS"
}
for name in ${TESTS:-}; do
  if [ "$(left)" -le 10 ]; then say "SKIP $name (deadline)"; continue; fi
  cap=${CAP:-120}
  [ "$cap" -gt "$(left)" ] && cap=$(left)
  t0=$(date +%s)
  timeout -k 5 "$cap" meson test -C "$B" --no-rebuild --print-errorlogs -t 10 "$name" > "$OUT/t.log" 2>&1
  rc=$?
  [ $rc -eq 124 ] || [ $rc -eq 137 ] && mps_restart
  res=$(grep -E "^ *1/1 " "$OUT/t.log" | sed 's/  */ /g' | head -1)
  [ -z "$res" ] && res="rc=$rc (no result line: timed out at ${cap} s?)"
  say "$res [$(( $(date +%s) - t0 )) s]"
  { echo "===== $name rc=$rc"; cat "$OUT/t.log"; } >> "$LOG"
done
if [ -n "${RUNS:-}" ]; then
  while IFS= read -r cmd; do
    [ -z "$cmd" ] && continue
    if [ "$(left)" -le 10 ]; then say "SKIP run: $cmd (deadline)"; continue; fi
    cap=${RUN_CAP:-120}
    [ "$cap" -gt "$(left)" ] && cap=$(left)
    t0=$(date +%s)
    echo "===== run: $cmd" >> "$LOG"
    (cd "$B" && timeout -k 5 "$cap" bash -c "$cmd" < /dev/null) >> "$LOG" 2>&1
    rc=$?
    [ $rc -eq 124 ] || [ $rc -eq 137 ] && mps_restart
    say "run rc=$rc [$(( $(date +%s) - t0 )) s]: $cmd"
  done <<< "$RUNS"
fi
say "total: $(( $(date +%s) - t_start )) s"
