#!/usr/bin/env bash
# One perf program, gshmem then NVSHMEM, on 2 PEs of this host in one run, with the same options;
# the NVSHMEM program is built on the spot from the same source (build_nvshmem.sh). PROGRAM is an
# NVSHMEM perftest name (tests/perf/perftest: shmem_put_latency, bcast_latency, ...) or one of the
# project's own suites (gshmem_perf_<suite>).
# Usage: tests/perf/side_by_side.sh BUILD_DIR PROGRAM [options...]
#   e.g. tests/perf/side_by_side.sh build shmem_put_latency -e 64K -t 1024 -n 200 -w 20
set -uo pipefail
b="$1"
prog="$2"
shift 2
here="$(cd "$(dirname "$0")" && pwd)"
export NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1 TORCH_SYMM_MEM_DISABLE_MULTICAST=1
np="${NPES:-2}"
case "$prog" in
  gshmem_perf_*) g="$b/tests/perf/$prog"; nexe="nvshmem_${prog#gshmem_perf_}" ;;
  *) g="$b/tests/perf/perftest/$prog"; nexe="$prog" ;;
esac
echo "== gshmem $prog $*"
"$b/runtime/oshrun" -np "$np" "$g" "$@"
out="$(mktemp -d)"
"$here/build_nvshmem.sh" "$out" "$prog" >/dev/null || exit $?
echo "== nvshmem $prog $*"
GSHMEM_PERF_UID_FILE="$out/uid" mpirun --allow-run-as-root --oversubscribe -np "$np" -x NVSHMEM_DISABLE_NVLS \
  -x NCCL_NVLS_ENABLE -x GSHMEM_PERF_UID_FILE "$out/$nexe" "$@"
