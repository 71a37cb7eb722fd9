// put_bw --bidir shape (4 x 1024, share per block, grid barrier per iteration) with the data in
// the symmetric heap: raw loop vs the library's block put vs raw loop from a cudaMalloc source.
#include <nvshmem.h>
#include <nvshmemx.h>
#include <cuda_runtime.h>

#include "probes.cuh"
#include <cstdio>
#include <climits>
#include <cstdlib>
#include <cstring>

__global__ void __launch_bounds__(1024) k(int mode, const char* src, char* dst_remote, char* dst_sym, size_t bytes,
                                          int iters, unsigned* counter, int peer) {
  const size_t share = bytes / gridDim.x;
  for (int i = 0; i < iters; ++i) {
    if (mode == 1) {
      nvshmemx_putmem_nbi_block(dst_sym + blockIdx.x * share, src + blockIdx.x * share, share, peer);
    } else {
      const uint4* __restrict__ s = reinterpret_cast<const uint4*>(src + blockIdx.x * share);
      uint4* __restrict__ d = reinterpret_cast<uint4*>(dst_remote + blockIdx.x * share);
      for (size_t j = threadIdx.x; j < share / 16; j += blockDim.x) d[j] = s[j];
    }
    grid_barrier(counter, i + 1);
  }
  grid_barrier(counter, iters + 1);
  if (threadIdx.x == 0) __threadfence_system();
}

int main(int argc, char** argv) {
  nvshmem_init();
  const int me = nvshmem_my_pe(), peer = 1 - me;
  const size_t max = 32u << 20;
  char* sym = (char*)nvshmem_malloc(max);
  double* bw = (double*)nvshmem_malloc(8);
  char* remote = (char*)nvshmem_ptr(sym, peer);
  char* local = nullptr;
  unsigned* counter = nullptr;
  cudaMalloc(&local, max);
  cudaMemset(local, 0, max);
  cudaMemset(sym, 0, max);
  cudaMalloc(&counter, 8);
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaDeviceSynchronize();
  const char* names[] = {"raw_heap", "lib_block_put", "raw_cudamalloc_src"};
  for (int rep = 0; rep < 2; ++rep)
    for (int mode = 0; mode < 3; ++mode)
      for (size_t sz : {size_t(512) << 10, size_t(4) << 20, size_t(32) << 20}) {
        const char* src = mode == 2 ? local : sym;
        nvshmem_barrier_all();
        cudaMemset(counter, 0, 8);
        k<<<4, 1024>>>(mode, src, remote, sym, sz, 20, counter, peer);
        cudaDeviceSynchronize();
        cudaMemset(counter, 0, 8);
        cudaDeviceSynchronize();
        nvshmem_barrier_all();
        cudaEventRecord(a);
        k<<<4, 1024>>>(mode, src, remote, sym, sz, 200, counter, peer);
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(e)); return 1; }
        float ms = 0;
        cudaEventElapsedTime(&ms, a, b);
        double mine = double(sz) * 200 / (ms * 1e6);
        double other = 0;
        cudaMemcpy(bw, &mine, 8, cudaMemcpyHostToDevice);
        nvshmem_barrier_all();
        nvshmem_getmem(&other, bw, 8, peer);
        nvshmem_barrier_all();
        if (me == 0) printf("probe rep %d %-20s %9zu  pe0 %.1f pe1 %.1f sum %.1f GB/s\n", rep, names[mode], sz, mine, other, mine + other);
      }
  nvshmem_finalize();
  return 0;
}
