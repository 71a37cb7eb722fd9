// put_bw shape (4 x 1024, block share, grid barrier per iteration), heap buffers, 512-aligned.
//   st_probe flavours: raw loops with global or generic loads and stores against the library's
//                      block put, one way and both ways, 512 KiB / 2 MiB / 32 MiB (call 4)
//   st_probe layers:   one way, each layer of gshmem's block copy called directly (call 5)
#include <nvshmem.h>
#include <nvshmemx.h>
#include <cuda_runtime.h>

#include "probes.cuh"
#include <cstdio>
#include <climits>
#include <cstdint>
#include <cstring>
#include <vector>

__device__ __forceinline__ void st_generic(uint4* p, uint4 v) {
  asm volatile("st.v4.b32 [%0], {%1,%2,%3,%4};" ::"l"(p), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w) : "memory");
}
__device__ __forceinline__ void st_global(uint4* p, uint4 v) {
  asm volatile("st.global.v4.b32 [%0], {%1,%2,%3,%4};" ::"l"(p), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w) : "memory");
}
__device__ __forceinline__ uint4 ld_generic(const uint4* p) {
  uint4 v;
  asm volatile("ld.v4.b32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ uint4 ld_global(const uint4* p) {
  uint4 v;
  asm volatile("ld.global.v4.b32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p) : "memory");
  return v;
}

__global__ void __launch_bounds__(1024) k(int mode, char* sym, char* remote, size_t bytes, int iters, unsigned* counter, int peer) {
  const size_t share = bytes / gridDim.x;
  const uint4* s = reinterpret_cast<const uint4*>(sym + blockIdx.x * share);
  uint4* d = reinterpret_cast<uint4*>(remote + blockIdx.x * share);
  const size_t nv = share / 16;
  for (int i = 0; i < iters; ++i) {
    switch (mode) {
      case 0: for (size_t j = threadIdx.x; j < nv; j += blockDim.x) st_global(d + j, ld_global(s + j)); break;
      case 1: nvshmemx_putmem_nbi_block(sym + blockIdx.x * share, sym + blockIdx.x * share, share, peer); break;
      case 2: for (size_t j = threadIdx.x; j < nv; j += blockDim.x) st_generic(d + j, ld_generic(s + j)); break;
      case 3: for (size_t j = threadIdx.x; j < nv; j += blockDim.x) st_global(d + j, ld_generic(s + j)); break;
      case 4: GSHMEM_DEV::copy_bulk<GSHMEM_DEV::Block, true>(remote + blockIdx.x * share, sym + blockIdx.x * share, share); break;
      case 5: GSHMEM_DEV::copy_outlined<GSHMEM_DEV::Block, true>(remote + blockIdx.x * share, sym + blockIdx.x * share, share); break;
      case 6: GSHMEM_DEV::copy_any<GSHMEM_DEV::Block, true>(remote + blockIdx.x * share, sym + blockIdx.x * share, share); break;
      case 7: { const uint4* __restrict__ rs = s; uint4* __restrict__ rd = d; const size_t n2 = nv; const int r = GSHMEM_DEV::Block::rank(), w = GSHMEM_DEV::Block::size(); for (size_t j = r; j < n2; j += w) rd[j] = rs[j]; } break;
      case 8: GSHMEM_DEV::copy_bulk<GSHMEM_DEV::Block, false>(remote + blockIdx.x * share, sym + blockIdx.x * share, share); break;
      case 9: GSHMEM_DEV::copy_outlined<GSHMEM_DEV::Block, false>(remote + blockIdx.x * share, sym + blockIdx.x * share, share); break;
      case 10: for (size_t j = threadIdx.x; j < nv; j += blockDim.x) st_generic(d + j, ld_global(s + j)); break;
    }
    grid_barrier(counter, i + 1);
  }
  grid_barrier(counter, iters + 1);
}

int main(int argc, char** argv) {
  const bool layers = argc > 1 && !strcmp(argv[1], "layers");
  const std::vector<int> modes = layers ? std::vector<int>{0, 1, 4, 5, 6, 7, 8, 9} : std::vector<int>{0, 1, 2, 3, 10};
  const std::vector<size_t> sizes = layers ? std::vector<size_t>{size_t(128) << 10, size_t(512) << 10, size_t(2) << 20}
                                           : std::vector<size_t>{size_t(512) << 10, size_t(2) << 20, size_t(32) << 20};
  nvshmem_init();
  const int me = nvshmem_my_pe(), peer = 1 - me;
  char* sym = (char*)nvshmem_align(4096, 32u << 20);
  char* remote = (char*)nvshmem_ptr(sym, peer);
  double* bw = (double*)nvshmem_malloc(8);
  unsigned* counter;
  cudaMalloc(&counter, 8);
  cudaMemset(sym, 1, 32u << 20);
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  const char* names[] = {"raw_ldg_stg", "lib_block_put", "raw_ld_st_generic", "raw_ld_generic_stg", "copy_bulk_plain_inl", "copy_outlined_plain", "copy_any_plain_inl", "restrict_loop_inl", "copy_bulk_4inflight", "copy_outlined_4infl", "raw_ldg_st_generic"};
  for (int rep = 0; rep < 2; ++rep)
    for (int both = 0; both < (layers ? 1 : 2); ++both)
      for (int mode : modes)
        for (size_t sz : sizes) {
          const bool run = both || me == 0;
          nvshmem_barrier_all();
          for (int t = 0; t < 2; ++t) {
            cudaMemset(counter, 0, 8);
            if (t == 1) cudaEventRecord(e0);
            if (run) k<<<4, 1024>>>(mode, sym, remote, sz, t ? 200 : 20, counter, peer);
            if (t == 1) cudaEventRecord(e1);
            cudaDeviceSynchronize();
          }
          if (cudaGetLastError() != cudaSuccess) { printf("kernel failed\n"); return 1; }
          float ms = 1;
          cudaEventElapsedTime(&ms, e0, e1);
          double mine = run ? double(sz) * 200 / (ms * 1e6) : 0, other = 0;
          cudaMemcpy(bw, &mine, 8, cudaMemcpyHostToDevice);
          nvshmem_barrier_all();
          nvshmem_getmem(&other, bw, 8, peer);
          nvshmem_barrier_all();
          if (me == 0)
            printf("rep %d %-5s %-20s %9zu  %.1f GB/s  (%.3f us/iter/PE)\n", rep, both ? "bidir" : "uni", names[mode], sz,
                   mine + other, ms * 1e3 / 200);
        }
  nvshmem_finalize();
  return 0;
}
