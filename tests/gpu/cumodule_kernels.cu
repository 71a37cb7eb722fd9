// Kernels gpu_cumodule loads at run time (built into a fatbin by meson, loaded with
// cuModuleLoadData / cuLibraryLoadData): their device state comes from shmemx_cumodule_init.
#include <shmem.h>

extern "C" __global__ void ring_put(uint64_t* dst, const uint64_t* src, size_t n, int pe) {
  shmemx_putmem_block(dst, src, n * sizeof(uint64_t), pe);
  __syncthreads();
  if (threadIdx.x == 0) shmem_quiet();
}
