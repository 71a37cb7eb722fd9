#!/usr/bin/env bash
# On a GPU host: build with CUDA, run the gpu suite (including the forced-proxy variants), then the
# proxy performance figures next to the direct path and the FIFO floor. Logs go to $1 (default
# ./gpu-host-logs). Usage: scripts/gpu_host.sh [log dir] [build dir]
# Env: GPU_SUITE (meson suite, 'none' to skip), GPU_TIMEOUT_MULT, GPU_PERF=0 (no perf),
# PERF_MODES (subset of 'direct ce tcp'), GPU_SHARED (1: all PEs on one GPU; default: when the host
# has one GPU), BUILDTYPE (meson buildtype of a new build dir, default debugoptimized),
# INSTALL_CHECK=1 (also tests/install_check.sh against the build's prefix); in shared mode
# GPU_FILTER (regex over test names) and GPU_CE_NP (PE counts of the copy-engine tests, e.g. 2);
# PERFTEST=quick|full: every NVSHMEM-perftest program (tests/perf/perftest) for gshmem and, built
# from the same sources, NVSHMEM (tests/perf/runner.py --set gpu --peer nvshmem; quick: tiny counts);
# PERFTEST_ROUNDS (alternated rounds, default 1), PERFTEST_ONLY (comma-separated programs: only
# these are built and run), PERFTEST_PLOTS=0 (no PNGs: a log directory of a few files);
# UCX_PACK (default .deps/ucx-cu13.tar.xz: a CUDA-aware UCX, the libucx-cu13 wheel's libraries,
# modules and headers, stripped): unpacked to /tmp/ucx; the build compiles the ucx transport
# against its headers and the tests load it (GSHMEM_UCX_LIBRARY).
set -uo pipefail
LOG=${1:-gpu-host-logs}
B=${2:-/tmp/b}
mkdir -p "$LOG"
export NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1 TORCH_SYMM_MEM_DISABLE_MULTICAST=1
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi -L > "$LOG/gpus.txt" 2>&1
ucx_opt=()
pack=${UCX_PACK:-.deps/ucx-cu13.tar.xz}
if [ -f "$pack" ]; then
  mkdir -p /tmp/ucx && tar xJf "$pack" -C /tmp/ucx
  export GSHMEM_UCX_LIBRARY=/tmp/ucx/lib/libucp.so.0 LD_LIBRARY_PATH=/tmp/ucx/lib:/tmp/ucx/libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  ucx_opt=(-Ducx=enabled -Ducx_include=/tmp/ucx/include)
  /tmp/ucx/bin/ucx_info -v > "$LOG/ucx.txt" 2>&1; /tmp/ucx/bin/ucx_info -d >> "$LOG/ucx.txt" 2>&1
fi
[ -d "$B" ] || meson setup "$B" . -Dcuda=enabled -Dbuildtype="${BUILDTYPE:-debugoptimized}" --prefix="$B/prefix" \
  "${ucx_opt[@]}" > "$LOG/setup.log" 2>&1
ninja -C "$B" > "$LOG/build.log" 2>&1 || { tail -50 "$LOG/build.log"; exit 1; }
# One GPU on the host (or GPU_SHARED=1): every PE of a test shares it. Kernels of different
# processes run concurrently only under MPS, and PEs spinning on each other need that, so the suite
# runs under an MPS daemon started here, except the copy-engine proxy tests: under MPS their
# cudaMemcpyAsync between processes' IPC mappings stalls (an MPS limitation, docs/testing.md), so
# they run afterwards with the daemon stopped (time slicing).
ngpu=$(grep -c '^GPU' "$LOG/gpus.txt")
shared=${GPU_SHARED:-auto}
[ "$shared" = auto ] && { [ "$ngpu" -lt 2 ] && shared=1 || shared=0; }
# Every MPS run below (suite, install check, perftest): MPS clients share one pool of hardware work
# queues; with few queues each, the proxy's streams wait behind a kernel that waits for them
# (docs/testing.md). 16 each leaves room for 4 clients; without MPS it only adds queues.
[ "$shared" = 1 ] && export CUDA_DEVICE_MAX_CONNECTIONS=${CUDA_DEVICE_MAX_CONNECTIONS:-16}
suite_run() {  # name of the log, then test names (none: the whole suite)
  local tag=$1; shift
  meson test -C "$B" --num-processes 1 --print-errorlogs --timeout-multiplier "${GPU_TIMEOUT_MULT:-0.5}" \
    $([ $# -eq 0 ] && echo --suite "${GPU_SUITE:-gpu}") "$@" > "$LOG/gpu-suite-$tag.log" 2>&1
  cp "$B/meson-logs/testlog.txt" "$LOG/gpu-testlog-$tag.txt" 2>/dev/null
  grep -E "^ *[0-9]+/[0-9]+ |^(Ok|Fail|Skipped|Timeout|Expected)" "$LOG/gpu-suite-$tag.log" | sed 's/  */ /g' | tail -80
}
if [ "${GPU_SUITE:-gpu}" != none ]; then
  if [ "$shared" = 1 ]; then
    export GSHMEM_TEST_SHARED_GPU=1 CUDA_MPS_PIPE_DIRECTORY=/tmp/gshmem-mps CUDA_MPS_LOG_DIRECTORY=/tmp/gshmem-mps-log
    mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
    names=$(meson test -C "$B" --list --suite "${GPU_SUITE:-gpu}" 2>/dev/null | sed -n 's/.*gshmem:\(.*\)$/\1/p')
    names=$(echo "$names" | grep -E -- "${GPU_FILTER:-.}" || true)
    # Time slicing is slow at 4 PEs on one GPU (minutes per test): GPU_CE_NP picks the PE counts.
    ce=$(echo "$names" | grep -- '-proxy-ce-' | grep -E -- "-oshrun-(${GPU_CE_NP:-2|4})\$" || true)
    # Tests that kill a PE with a CUDA context: an MPS client killed mid-kernel can leave the daemon
    # failing every later client, so these run without MPS too.
    ce="$ce $(echo "$names" | grep -- 'dead-pe' || true)"
    rest=$(echo "$names" | grep -v -e '-proxy-ce-' -e 'dead-pe' || true)
    echo "== shared GPU ($ngpu on the host): under MPS"
    nvidia-cuda-mps-control -d || echo "could not start MPS"
    suite_run shared-mps $rest
    echo quit | nvidia-cuda-mps-control
    sleep 2
    unset CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY
    if [ -n "${ce// /}" ]; then
      echo "== shared GPU: copy-engine proxy and dead-PE tests without MPS"
      suite_run shared-ce $ce
    fi
  else
    suite_run all
  fi
fi
if [ "${INSTALL_CHECK:-0}" = 1 ]; then
  t0=$(date +%s)
  # Its CUDA programs have PEs that wait on each other inside kernels: on a shared GPU, under MPS.
  if [ "$shared" = 1 ]; then
    export CUDA_MPS_PIPE_DIRECTORY=/tmp/gshmem-mps CUDA_MPS_LOG_DIRECTORY=/tmp/gshmem-mps-log
    mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
    nvidia-cuda-mps-control -d || echo "could not start MPS"
  fi
  timeout 300 tests/install_check.sh "$B" > "$LOG/install-check.log" 2>&1
  echo "install check rc=$? in $(( $(date +%s) - t0 )) s"; tail -14 "$LOG/install-check.log"
  if [ "$shared" = 1 ]; then
    echo quit | nvidia-cuda-mps-control
    unset CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY
  fi
fi
if [ -n "${PERFTEST:-}" ]; then
  t0=$(date +%s)
  tests/perf/build_nvshmem.sh /tmp/nvshmem-bin $(echo "${PERFTEST_ONLY:-}" | tr , " ") > "$LOG/build-nvshmem.log" 2>&1 ||
    echo "build_nvshmem failed: $(grep -m5 -i error "$LOG/build-nvshmem.log")"
  if [ "$shared" = 1 ]; then
    export CUDA_MPS_PIPE_DIRECTORY=/tmp/gshmem-mps CUDA_MPS_LOG_DIRECTORY=/tmp/gshmem-mps-log
    mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
    nvidia-cuda-mps-control -d || echo "could not start MPS"
  fi
  timeout "${PERFTEST_TIMEOUT:-400}" python3 tests/perf/runner.py --build "$B" --set gpu --peer nvshmem \
    --peer-dir /tmp/nvshmem-bin --out "$LOG/perftest" $([ "$PERFTEST" = quick ] && echo --quick) \
    --rounds "${PERFTEST_ROUNDS:-1}" ${PERFTEST_ONLY:+--only "$PERFTEST_ONLY"} \
    $([ "${PERFTEST_PLOTS:-1}" = 0 ] && echo --no-plots) > "$LOG/perftest.log" 2>&1
  echo "perftest rc=$? in $(( $(date +%s) - t0 )) s"
  if [ "$shared" = 1 ]; then
    echo quit | nvidia-cuda-mps-control
    unset CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY
  fi
fi
P=$B/tests/perf/perftest
OSH=$B/runtime/oshrun
[ -x "$OSH" ] || OSH=$(find "$B" -name oshrun -type f | head -1)
[ "${GPU_PERF:-1}" = 1 ] || exit 0
{
  echo "== floors"; timeout 120 "$B/tests/perf/shmem_floors" 2>&1
  for mode in ${PERF_MODES:-direct ce tcp}; do
    case $mode in
      direct) env=() ;;
      ce) env=(GSHMEM_FORCE_PROXY=1) ;;
      tcp) env=(GSHMEM_FORCE_PROXY=1 GSHMEM_PROXY_ENGINE=tcp) ;;
    esac
    echo "== $mode put_signal_ping_pong"; timeout 90 env "${env[@]}" "$OSH" -np 2 "$P/shmem_put_signal_ping_pong_latency" -b 8 -e 64K -f 8 -n 500 -w 50 2>&1
    echo "== $mode signal_ping_pong"; timeout 90 env "${env[@]}" "$OSH" -np 2 "$P/shmem_signal_ping_pong_latency" -n 500 -w 50 2>&1
    echo "== $mode put_latency"; timeout 90 env "${env[@]}" "$OSH" -np 2 "$P/shmem_put_latency" -b 8 -e 1M -f 16 -n 200 -w 20 -t 1024 2>&1
    echo "== $mode put_bw"; timeout 90 env "${env[@]}" "$OSH" -np 2 "$P/shmem_put_bw" -b 1M -e 256M -f 4 -n 10 -c 16 -t 1024 2>&1
    echo "== $mode atomic_latency"; timeout 90 env "${env[@]}" "$OSH" -np 2 "$P/shmem_atomic_latency" -a fetch_add 2>&1
    echo "== $mode p_ping_pong"; timeout 90 env "${env[@]}" "$OSH" -np 2 "$P/shmem_p_ping_pong_latency" -t 512 -e 16K -n 500 -w 50 2>&1
    echo "== $mode g_latency"; timeout 90 env "${env[@]}" "$OSH" -np 2 "$P/shmem_g_latency" -t 512 -e 64K -n 200 -w 20 2>&1
  done
  for lanes in 1 2 8; do  # the copy-engine proxy with other stream counts per PE (default 4: "ce" above)
    echo "== ce lanes=$lanes put_bw"
    timeout 90 env GSHMEM_FORCE_PROXY=1 GSHMEM_PROXY_CE_STREAMS=$lanes "$OSH" -np 2 "$P/shmem_put_bw" -b 16M -e 256M -f 4 -n 10 -c 16 -t 1024 2>&1
  done
} > "$LOG/proxy-perf.log" 2>&1
grep -v "^#" "$LOG/proxy-perf.log" | head -150
