#!/usr/bin/env bash
# Builds the GPU perf suites against NVSHMEM from the same sources (tests/perf/gpu_perf.cu and
# coll_perf.cu), for side-by-side runs. NVSHMEM is taken from $NVSHMEM_HOME or the
# nvidia-nvshmem-cu13 Python package. Exit 77 when it is not found.
# Usage: build_nvshmem.sh OUTDIR [SUITE...]   (default: every suite; NVSHMEM needs -rdc and its
# static device library)
set -euo pipefail
out="$1"
shift
here="$(cd "$(dirname "$0")" && pwd)"
nv="${NVSHMEM_HOME:-$(python3 -c 'import nvidia.nvshmem as m; print(m.__path__[0])' 2>/dev/null || true)}"
if [ -z "$nv" ] || [ ! -f "$nv/include/nvshmem.h" ]; then
  echo "build_nvshmem: NVSHMEM not found (set NVSHMEM_HOME or install nvidia-nvshmem-cu13)" >&2
  exit 77
fi
nvcc="${NVCC:-nvcc}"
mkdir -p "$out"
# The wheel ships only libnvshmem_host.so.3; give the linker the unversioned name in OUTDIR.
ln -sf "$nv/lib/libnvshmem_host.so.3" "$out/libnvshmem_host.so"
suites="${*:-put_latency get_latency p_latency g_latency p_ping_pong_latency signal_ping_pong_latency
        put_signal_ping_pong_latency atomic_latency barrier_latency put_bw get_bw p_bw st_bw init_latency host_put_latency
        host_get_latency stream_latency stream_put_bw coll_barrier_latency coll_broadcast_latency
        coll_fcollect_latency coll_alltoall_latency coll_reduction_latency}"
pids=()
for s in $suites; do
  src="$here/gpu_perf.cu"
  case "$s" in coll_*) src="$here/coll_perf.cu" ;; esac
  "$nvcc" -std=c++17 -O2 -rdc=true -gencode=arch=compute_90,code=sm_90 -DNDEBUG -DGSHMEM_PERF_NVSHMEM \
    -DGSHMEM_PERF_SUITE="$s" -I"$nv/include" -I"$here" "$src" -o "$out/nvshmem_$s" \
    -L"$out" -L"$nv/lib" -lnvshmem_host -lnvshmem_device -lcuda -Xlinker -rpath -Xlinker "$nv/lib" &
  pids+=($!)
done
failed=0
for p in "${pids[@]}"; do wait "$p" || failed=1; done
echo "build_nvshmem: built $(ls "$out" | grep -c '^nvshmem_') suites in $out against $nv"
exit $failed
