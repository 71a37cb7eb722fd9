// Where shmem_malloc puts put_bw's and st_bw's buffers, and what a buffer's offset from a 2 MiB
// boundary does to the block put (bidirectional, put_bw's shape) and to st_bw's raw stores.
#include <nvshmem.h>
#include <nvshmemx.h>
#include <cuda_runtime.h>

#include "probes.cuh"
#include <cstdio>
#include <climits>
#include <cstdint>

__global__ void __launch_bounds__(1024) putk(char* sym, size_t bytes, int iters, unsigned* counter, int peer) {
  const size_t share = bytes / gridDim.x;
  for (int i = 0; i < iters; ++i) {
    nvshmemx_putmem_nbi_block(sym + blockIdx.x * share, sym + blockIdx.x * share, share, peer);
    grid_barrier(counter, i + 1);
  }
  grid_barrier(counter, iters + 1);
}

__global__ void __launch_bounds__(1024) stk(const double* data, double* remote, long long len, int iters, unsigned* counter) {
  const long long nthreads = (long long)gridDim.x * blockDim.x, tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long slice = 2 * nthreads;
  for (int i = 0; i < iters; ++i) {
    long long j = 0;
    for (; j < len - slice; j += slice) {
#pragma unroll
      for (int u = 0; u < 2; ++u) remote[j + u * nthreads + tid] = data[j + u * nthreads + tid];
      __syncthreads();
    }
    for (int u = 0; u < 2; ++u) {
      const long long idx = j + u * nthreads + tid;
      if (idx < len) remote[idx] = data[idx];
    }
    grid_barrier(counter, i + 1);
  }
  grid_barrier(counter, iters + 1);
}

int main() {
  nvshmem_init();
  const int me = nvshmem_my_pe(), peer = 1 - me;
  void* a = nvshmem_malloc(8);
  void* b = nvshmem_malloc(8);
  void* c = nvshmem_malloc(32u << 20);
  if (me == 0)
    printf("alloc: 8 B at %%4096=%lu, 8 B at %%4096=%lu, 32 MiB at %%4096=%lu %%2M=%lu\n", (unsigned long)((uintptr_t)a % 4096),
           (unsigned long)((uintptr_t)b % 4096), (unsigned long)((uintptr_t)c % 4096), (unsigned long)((uintptr_t)c % (2u << 20)));
  nvshmem_free(c);
  nvshmem_free(b);
  nvshmem_free(a);
  char* base = (char*)nvshmem_align(2u << 20, (64u << 20) + 8192);
  unsigned* counter;
  cudaMalloc(&counter, 8);
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  double* bw = (double*)nvshmem_malloc(8);
  for (int rep = 0; rep < 2; ++rep)
    for (int kind = 0; kind < 2; ++kind)
      for (size_t off : {0, 16, 32, 64, 128, 256, 512, 4096})
        for (size_t sz : {size_t(512) << 10, size_t(32) << 20}) {
          if (kind == 1 && sz != (32u << 20)) continue;
          char* p = base + off;
          const int iters = kind ? 10 : 200, warm = kind ? 10 : 20;
          const bool run = kind == 0 || me == 0;  // st_bw: one direction
          nvshmem_barrier_all();
          for (int t = 0; t < 2; ++t) {
            cudaMemset(counter, 0, 8);
            if (t == 1) cudaEventRecord(e0);
            if (run) {
              if (kind == 0) putk<<<4, 1024>>>(p, sz, t ? iters : warm, counter, peer);
              else stk<<<4, 1024>>>((double*)p, (double*)nvshmem_ptr(p, peer), sz / 8, t ? iters : warm, counter);
            }
            if (t == 1) cudaEventRecord(e1);
            cudaDeviceSynchronize();
          }
          float ms = 1;
          cudaEventElapsedTime(&ms, e0, e1);
          double mine = run ? double(sz) * iters / (ms * 1e6) : 0, other = 0;
          cudaMemcpy(bw, &mine, 8, cudaMemcpyHostToDevice);
          nvshmem_barrier_all();
          nvshmem_getmem(&other, bw, 8, peer);
          nvshmem_barrier_all();
          if (me == 0)
            printf("rep %d %-14s off %5zu size %9zu  %.1f GB/s\n", rep, kind ? "st_bw" : "put_bw_bidir", off, sz, mine + other);
        }
  nvshmem_finalize();
  return 0;
}
