// The probes' grid barrier: NVSHMEM's put_bw/st_bw kernels end each iteration with this one
// (every block's thread 0 counts in, the last releases the others). Same as
// tests/perf/st_placement.cu's.
#pragma once
#include <climits>

__device__ __forceinline__ void grid_barrier(unsigned* counter, unsigned e) {
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    const unsigned old = atomicInc(counter, UINT_MAX);
    if (old == gridDim.x * e - 1) atomicAdd(counter + 1, 1u);
    while (*reinterpret_cast<volatile unsigned*>(counter + 1) != e) {
    }
  }
  __syncthreads();
}
