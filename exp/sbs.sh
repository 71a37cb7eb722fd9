#!/usr/bin/env bash
# temporary (not committed): gpu suite + side by side of the small-put suites
export NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 PATH=/usr/local/cuda/bin:$PATH
GPU_PERF=0 timeout 300 scripts/gpu_host.sh $OUT /tmp/b | grep -E "FAIL|TIMEOUT|^(Ok|Fail|Skipped|Timeout)"
peer=/tmp/peer
tests/perf/build_nvshmem.sh $peer put_latency get_latency put_signal_ping_pong_latency > $OUT/nvbuild.log 2>&1 || { tail $OUT/nvbuild.log; exit 1; }
run() {  # suite args...
  s=$1; shift
  for rep in 1 2; do
    echo "== gshmem $s $*"; timeout 60 /tmp/b/runtime/oshrun -np 2 /tmp/b/tests/perf/shmem_$s "$@" 2>&1 | grep -v "^#"
    echo "== nvshmem $s $*"; GSHMEM_PERF_UID_FILE=$peer/uid$rep$s timeout 60 mpirun --allow-run-as-root --oversubscribe -np 2 -x NVSHMEM_DISABLE_NVLS -x NCCL_NVLS_ENABLE -x GSHMEM_PERF_UID_FILE $peer/nvshmem_$s "$@" 2>&1 | grep -v "^#"
  done
}
run put_latency -b 8 -e 64 -f 8
run get_latency -b 8 -e 64 -f 8
run put_signal_ping_pong_latency -b 8 -e 64 -f 8
run put_latency -s block -t 1024 -b 1K -e 64K -f 4
