#!/usr/bin/env bash
# One GPU suite, gshmem then NVSHMEM, on 2 PEs of this host in one run, with the same options; the
# NVSHMEM program is built on the spot from the same source (as build_nvshmem.sh does).
# Usage: tests/perf/side_by_side.sh BUILD_DIR SUITE [suite options...]
#   e.g. tests/perf/side_by_side.sh build put_latency -s block -t 1024 -b 8 -e 64K -f 8
set -uo pipefail
b="$1"
suite="$2"
shift 2
here="$(cd "$(dirname "$0")" && pwd)"
export NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1 TORCH_SYMM_MEM_DISABLE_MULTICAST=1
osh="$b/runtime/oshrun"
echo "== gshmem $suite $*"
"$osh" -np 2 "$b/tests/perf/shmem_$suite" "$@"
nv="${NVSHMEM_HOME:-$(python3 -c 'import nvidia.nvshmem as m; print(m.__path__[0])' 2>/dev/null || true)}"
if [ -z "$nv" ] || [ ! -f "$nv/include/nvshmem.h" ]; then
  echo "side_by_side: NVSHMEM not found (set NVSHMEM_HOME or install nvidia-nvshmem-cu13)" >&2
  exit 77
fi
out="$(mktemp -d)"
ln -sf "$nv/lib/libnvshmem_host.so.3" "$out/libnvshmem_host.so"
src="$here/gpu_perf.cu"
case "$suite" in coll_*) src="$here/coll_perf.cu" ;; esac
"${NVCC:-nvcc}" -std=c++17 -O2 -rdc=true -gencode=arch=compute_90,code=sm_90 -DNDEBUG -DGSHMEM_PERF_NVSHMEM \
  -DGSHMEM_PERF_SUITE="$suite" -I"$nv/include" -I"$here" "$src" -o "$out/nvshmem_$suite" \
  -L"$out" -L"$nv/lib" -lnvshmem_host -lnvshmem_device -lcuda -Xlinker -rpath -Xlinker "$nv/lib" || exit 1
echo "== nvshmem $suite $*"
GSHMEM_PERF_UID_FILE="$out/uid" mpirun --allow-run-as-root --oversubscribe -np 2 -x NVSHMEM_DISABLE_NVLS \
  -x NCCL_NVLS_ENABLE -x GSHMEM_PERF_UID_FILE "$out/nvshmem_$suite" "$@"
