#!/bin/bash
# In $B: proxied latencies at 1+1 (GSHMEM_EMULATE_NODES=2), PEs placed by oshrun: --bind-to core
# (one CPU each), --cpus-per-pe 3, and unbound; alternated, two rounds. Then the 2+2 layout with
# --cpus-per-pe 3 (12 CPUs) once.
E=(GSHMEM_TRANSPORT=ucx UCX_TLS=tcp,cuda_copy UCX_WARN_UNUSED_ENV_VARS=n SHMEM_SYMMETRIC_SIZE=256M GSHMEM_EMULATE_NODES=2)
nproc; for r in 1 2; do
  for v in "--bind-to core" "--cpus-per-pe 3" ""; do
    for p in put_latency g_latency atomic_latency; do
      echo "== [${v:-unbound}] round $r $p"
      timeout 60 env "${E[@]}" runtime/oshrun -np 2 $v sh -c 'grep Cpus_allowed_list /proc/self/status >&2; exec "$@"' sh tests/perf/gshmem_perf_$p -n 300 -w 30 --csv 2>&1 | grep -v "^#" | grep "gshmem,\|WARN\|Cpus_allowed\|rror" | head -8
    done
  done
done
echo "== 2+2 --cpus-per-pe 3: gpu_rs"
timeout 100 env "${E[@]}" runtime/oshrun -np 4 --cpus-per-pe 3 tests/gpu/gpu_rs 2>&1 | tail -3
