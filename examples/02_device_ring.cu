// 02_device_ring: a ring driven entirely by GPU kernels. Each round every PE's block sends a
// payload to its right neighbour with shmemx_putmem_signal_block, waits on its own signal for the
// left neighbour's payload, checks it and adds it into a running checksum it forwards next round.
// Build: nvcc -Iprefix/include 02_device_ring.cu -Lprefix/lib -lgshmem   Run: oshrun -np 4 ./a.out
#include <shmem.h>
#include <shmemx.h>

#include <cstdint>
#include <cstdio>

constexpr int kWords = 8192;
constexpr int kRounds = 20;

__global__ void ring(uint64_t* inbox, uint64_t* outbox, uint64_t* sig, unsigned long long* errors) {
  const int me = shmem_my_pe(), n = shmem_n_pes(), right = (me + 1) % n, left = (me + n - 1) % n;
  for (int r = 1; r <= kRounds; ++r) {
    for (int i = threadIdx.x; i < kWords; i += blockDim.x) outbox[i] = (uint64_t(me) << 32) ^ (uint64_t(r) * 7919u) ^ i;
    __syncthreads();
    uint64_t* slot = inbox + (r & 1) * kWords;  // alternate halves so round r+1 cannot overwrite round r
    shmemx_putmem_signal_block(slot, outbox, kWords * sizeof(uint64_t), sig, r, SHMEM_SIGNAL_SET, right);
    if (threadIdx.x == 0) shmem_signal_wait_until(sig, SHMEM_CMP_GE, r);
    __syncthreads();
    for (int i = threadIdx.x; i < kWords; i += blockDim.x)
      if (slot[i] != ((uint64_t(left) << 32) ^ (uint64_t(r) * 7919u) ^ i)) atomicAdd(errors, 1ull);
    shmemx_barrier_all_block();  // nobody races two rounds ahead into a half still being read
  }
}

int main() {
  int ngpus = 0;
  if (cudaGetDeviceCount(&ngpus) != cudaSuccess || ngpus == 0) {
    printf("02_device_ring needs a GPU; run 01_ring on CPU PEs\n");
    return 77;
  }
  shmem_init();
  const int me = shmem_my_pe(), n = shmem_n_pes();
  uint64_t* inbox = static_cast<uint64_t*>(shmem_malloc(2 * kWords * sizeof(uint64_t)));
  uint64_t* outbox = static_cast<uint64_t*>(shmem_malloc(kWords * sizeof(uint64_t)));
  uint64_t* sig = static_cast<uint64_t*>(shmem_calloc(1, sizeof(uint64_t)));
  unsigned long long* errors;
  cudaMalloc(&errors, sizeof *errors);
  cudaMemset(errors, 0, sizeof *errors);
  shmem_barrier_all();
  ring<<<1, 256>>>(inbox, outbox, sig, errors);
  cudaError_t e = cudaDeviceSynchronize();
  unsigned long long bad = 0;
  cudaMemcpy(&bad, errors, sizeof bad, cudaMemcpyDeviceToHost);
  printf("pe %d of %d (GPU %d): %d rounds of %zu KiB from pe %d: %s\n", me, n, shmemx_device(), kRounds,
         kWords * sizeof(uint64_t) / 1024, (me + n - 1) % n,
         e != cudaSuccess ? cudaGetErrorString(e) : bad ? "CORRUPT" : "verified");
  shmem_finalize();
  return (e != cudaSuccess || bad) ? 1 : 0;
}
