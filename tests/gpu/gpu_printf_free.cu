// gshmem's device code holds no printf: its failed checks write an error record that the host
// prints (docs/gpu.md, "Bad arguments"). CUDA refuses cudaLimitPrintfFifoSize once a kernel that
// holds a printf call has run in the context, so setting that limit after kernels full of gshmem
// device calls must still succeed, and read back at least the value set. Built with the device
// checks forced on (meson.build), so every call holds its error path: a block put with signal, a
// wait, an atomic and a team sync in one kernel, NVSHMEM's warpgroup barrier in another, and one
// of libgshmem's own collective kernels (shmemx_barrier_all_on_stream). The kernels' data is checked too:
// each PE puts a fresh random payload into its right neighbour's poisoned buffer with a block put
// and a signal; the receiver checks every word and the poison after it.
// Run: oshrun -np N gpu_printf_free (N >= 2, one GPU per PE).
#include <nvshmem.h>
#include <nvshmemx.h>

#include "gpu_util.cuh"


namespace {
constexpr size_t kWords = 4096;
constexpr uint64_t kPoison = 0xA5A5A5A5A5A5A5A5ull;

__global__ void put_ring(uint64_t* dst, const uint64_t* src, uint64_t* sig, int* counter, int peer) {
  shmemx_putmem_signal_block(dst, src, kWords * sizeof(uint64_t), sig, 1, SHMEM_SIGNAL_SET, peer);
  if (threadIdx.x == 0) {
    shmem_uint64_wait_until(sig, SHMEM_CMP_EQ, 1);
    shmem_int_atomic_add(counter, 1, peer);
    shmem_sync_all();
  }
}

__global__ void warpgroup_barrier() { nvshmemx_barrier_warpgroup(NVSHMEM_TEAM_WORLD); }

__global__ void fill(uint64_t* p, size_t n, uint64_t seed, int pe) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) p[i] = payload(seed, pe, i);
}
}  // namespace

int main() {
  skip_without_gpu();
  shmem_init();
  skip_unless_gpu_per_pe(2);
  require_device_heap();
  const int me = shmem_my_pe(), npes = shmem_n_pes();

  const uint64_t seed = shared_seed();
  auto* src = static_cast<uint64_t*>(shmem_malloc(kWords * sizeof(uint64_t)));
  auto* dst = static_cast<uint64_t*>(shmem_malloc((kWords + 64) * sizeof(uint64_t)));
  auto* sig = static_cast<uint64_t*>(shmem_calloc(1, sizeof(uint64_t)));
  auto* counter = static_cast<int*>(shmem_calloc(1, sizeof(int)));
  fill<<<8, 256>>>(src, kWords, seed, me);
  {
    static uint64_t poison[kWords + 64];
    for (auto& w : poison) w = kPoison;
    CK(cudaMemcpy(dst, poison, sizeof poison, cudaMemcpyHostToDevice));
  }
  CK(cudaDeviceSynchronize());
  shmem_barrier_all();
  put_ring<<<1, 256>>>(dst, src, sig, counter, (me + 1) % npes);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  warpgroup_barrier<<<1, 128>>>();
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  shmemx_barrier_all_on_stream(nullptr);
  CK(cudaDeviceSynchronize());
  shmem_barrier_all();

  // After kernels with gshmem device calls: the printf FIFO can still be sized.
  const size_t want = 3u << 20;
  const cudaError_t e = cudaDeviceSetLimit(cudaLimitPrintfFifoSize, want);
  if (e != cudaSuccess) {
    fprintf(stderr, "FAIL pe %d: setting the printf FIFO after kernels with gshmem device calls gave %s: the device "
            "code holds a printf\n", me, cudaGetErrorName(e));
    shmem_global_exit(1);
  }
  size_t got = 0;
  CK(cudaDeviceGetLimit(&got, cudaLimitPrintfFifoSize));
  if (got < want) {
    fprintf(stderr, "FAIL pe %d: printf FIFO reads %zu after setting %zu\n", me, got, want);
    shmem_global_exit(1);
  }

  const int left = (me + npes - 1) % npes;
  unsigned long long* bad = nullptr;
  CK(cudaMallocManaged(&bad, sizeof *bad));
  *bad = 0;
  verify<<<8, 256>>>(dst, kWords, seed, left, bad);
  CK(cudaDeviceSynchronize());
  uint64_t tail[64];
  CK(cudaMemcpy(tail, dst + kWords, sizeof tail, cudaMemcpyDeviceToHost));
  for (uint64_t w : tail)
    if (w != kPoison) ++*bad;
  int count = 0;
  CK(cudaMemcpy(&count, counter, sizeof count, cudaMemcpyDeviceToHost));
  if (*bad || count != 1) {
    fprintf(stderr, "FAIL pe %d: %llu words wrong in the payload from pe %d or the poison after it; counter %d (want 1)\n",
            me, *bad, left, count);
    shmem_global_exit(1);
  }
  shmem_barrier_all();
  if (me == 0) printf("gpu_printf_free: ok (%d PEs)\n", npes);
  CK(cudaFree(bad));
  shmem_free(counter);
  shmem_free(sig);
  shmem_free(dst);
  shmem_free(src);
  shmem_finalize();
  return 0;
}
