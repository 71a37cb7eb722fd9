#!/usr/bin/env bash
# One GPU suite, gshmem then NVSHMEM, on 2 PEs of this host in one run, with the same options; the
# NVSHMEM program is built on the spot from the same source (build_nvshmem.sh).
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
out="$(mktemp -d)"
"$here/build_nvshmem.sh" "$out" "$suite" >/dev/null || exit $?
echo "== nvshmem $suite $*"
GSHMEM_PERF_UID_FILE="$out/uid" mpirun --allow-run-as-root --oversubscribe -np 2 -x NVSHMEM_DISABLE_NVLS \
  -x NCCL_NVLS_ENABLE -x GSHMEM_PERF_UID_FILE "$out/nvshmem_$suite" "$@"
