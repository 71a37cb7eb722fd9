#!/usr/bin/env bash
# Builds perf programs against NVSHMEM from the same sources, for side-by-side runs: the
# NVSHMEM-perftest definitions (tests/perf/perftest/*.cu, under NVSHMEM's program names) and the
# project's own shapes (gpu_perf.cu / coll_perf.cu, as nvshmem_<suite>). NVSHMEM is taken from
# $NVSHMEM_HOME or the nvidia-nvshmem-cu13 Python package. Exit 77 when it is not found.
# Usage: build_nvshmem.sh OUTDIR [PROGRAM...]   (default: every program; NVSHMEM needs -rdc and its
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
perftest="shmem_put_latency shmem_get_latency shmem_p_latency shmem_g_latency shmem_p_ping_pong_latency
  shmem_signal_ping_pong_latency shmem_put_signal_ping_pong_latency shmem_put_ping_pong_latency shmem_atomic_latency
  shmem_put_bw shmem_get_bw shmem_p_bw shmem_g_bw shmem_st_bw latency bw barrier_latency sync_latency bcast_latency
  fcollect_latency alltoall_latency reduction_latency barrier_all_on_stream barrier_on_stream sync_all_on_stream
  sync_on_stream broadcast_on_stream fcollect_on_stream alltoall_on_stream reduction_on_stream"
own=""
for s in put_latency get_latency p_latency g_latency p_ping_pong_latency signal_ping_pong_latency \
  put_signal_ping_pong_latency atomic_latency barrier_latency put_bw get_bw p_bw st_bw init_latency host_put_latency \
  host_get_latency stream_latency stream_put_bw coll_barrier_latency coll_broadcast_latency \
  coll_fcollect_latency coll_alltoall_latency coll_reduction_latency coll_reducescatter_latency; do own="$own gshmem_perf_$s"; done
# A program's source: the perftest file that defines it; gshmem_perf_SUITE: the project's suites.
source_of() {
  case "$1" in
    shmem_put_latency|shmem_get_latency|shmem_p_latency|shmem_g_latency) echo "perftest/pt2pt_latency.cu" ;;
    shmem_*ping_pong_latency) echo "perftest/pt2pt_pingpong.cu" ;;
    shmem_atomic_latency) echo "perftest/pt2pt_atomic.cu" ;;
    shmem_*_bw) echo "perftest/pt2pt_bw.cu" ;;
    latency|bw) echo "perftest/host_pt2pt.cu" ;;
    *_on_stream) echo "perftest/coll_stream.cu" ;;
    barrier_latency|sync_latency|bcast_latency|fcollect_latency|alltoall_latency|reduction_latency)
      echo "perftest/coll_device.cu" ;;
    gshmem_perf_coll_*) echo "coll_perf.cu" ;;
    gshmem_perf_*) echo "gpu_perf.cu" ;;
    *) echo "unknown" ;;
  esac
}
progs="${*:-$perftest $own}"
pids=()
for p in $progs; do
  src="$(source_of "$p")"
  if [ "$src" = unknown ]; then
    echo "build_nvshmem: unknown program $p" >&2
    exit 2
  elif [ "${p#gshmem_perf_}" != "$p" ]; then
    defs=(-DGSHMEM_PERF_SUITE="${p#gshmem_perf_}")
    exe="$out/nvshmem_${p#gshmem_perf_}"
  else
    defs=(-DPERFTEST_PROGRAM="$p" -DPT_"$p")
    exe="$out/$p"
  fi
  "$nvcc" -std=c++17 -O2 -rdc=true -gencode=arch=compute_90,code=sm_90 -DNDEBUG -DGSHMEM_PERF_NVSHMEM "${defs[@]}" \
    -I"$nv/include" -I"$here" "$here/$src" -o "$exe" \
    -L"$out" -L"$nv/lib" -lnvshmem_host -lnvshmem_device -lcuda -Xlinker -rpath -Xlinker "$nv/lib" &
  pids+=($!)
done
failed=0
for p in "${pids[@]}"; do wait "$p" || failed=1; done
echo "build_nvshmem: built $(ls "$out" | grep -vc '^libnvshmem') programs in $out against $nv"
exit $failed
