// 06_neighbour_put: the kernel on README.md's front page. Each PE's block fills a message, puts it
// to its right neighbour with a signal, waits for its left neighbour's and checks every word.
// Build: oshnvcc -arch=sm_90 -o neighbour 06_neighbour_put.cu   Run: oshrun -np 4 ./neighbour
#include <shmem.h>
#include <shmemx.h>

#include <cstdio>

__global__ void neighbour(int* inbox, int* outbox, uint64_t* sig, int n, int* bad) {
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  const int right = (me + 1) % npes, left = (me + npes - 1) % npes;
  for (int i = threadIdx.x; i < n; i += blockDim.x) outbox[i] = me * n + i;
  __syncthreads();
  shmemx_putmem_signal_block(inbox, outbox, n * sizeof(int), sig, 1, SHMEM_SIGNAL_SET, right);
  if (threadIdx.x == 0) shmem_signal_wait_until(sig, SHMEM_CMP_EQ, 1);
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    if (inbox[i] != left * n + i) atomicAdd(bad, 1);
}

int main() {
  int gpus = 0;
  if (cudaGetDeviceCount(&gpus) != cudaSuccess || gpus == 0) return 77;  // no GPU: nothing to show
  shmem_init();
  const int n = 4096;
  int* inbox = static_cast<int*>(shmem_malloc(n * sizeof(int)));
  int* outbox = static_cast<int*>(shmem_malloc(n * sizeof(int)));
  uint64_t* sig = static_cast<uint64_t*>(shmem_calloc(1, sizeof(uint64_t)));
  int* bad;
  cudaMallocManaged(&bad, sizeof *bad);
  *bad = 0;
  shmem_barrier_all();
  neighbour<<<1, 256>>>(inbox, outbox, sig, n, bad);
  const cudaError_t e = cudaDeviceSynchronize();
  printf("pe %d of %d: %d words from pe %d: %s\n", shmem_my_pe(), shmem_n_pes(), n,
         (shmem_my_pe() + shmem_n_pes() - 1) % shmem_n_pes(), e ? cudaGetErrorString(e) : *bad ? "CORRUPT" : "ok");
  shmem_finalize();
  return e || *bad ? 1 : 0;
}
