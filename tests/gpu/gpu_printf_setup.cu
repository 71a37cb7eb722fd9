// shmem_init's device printf setup (GSHMEM_DEVICE_PRINTF_SETUP, docs/gpu.md). CUDA refuses
// cudaLimitPrintfFifoSize once a kernel holding a printf has run in the context, so the limit call
// right after shmem_init shows whether init ran libgshmem's printf kernel:
//   on  (default): the call fails with cudaErrorInvalidValue;
//   off (GSHMEM_DEVICE_PRINTF_SETUP=0): it succeeds, and the limit reads back at least the value set.
// Either way a kernel with device calls then runs: each PE puts a fresh random payload into its
// right neighbour's poisoned buffer with a block put and a signal, and the receiver checks every
// word and the poison after it. The kernel also prints one line from device code (the printf
// buffer works in both modes).
// Run: oshrun -np N gpu_printf_setup on|off (N >= 2, one GPU per PE).
#include "gpu_util.cuh"

#include <cstring>

namespace {
constexpr size_t kWords = 4096;
constexpr uint64_t kPoison = 0xA5A5A5A5A5A5A5A5ull;

__global__ void put_ring(uint64_t* dst, const uint64_t* src, uint64_t* sig, int peer) {
  shmemx_putmem_signal_block(dst, src, kWords * sizeof(uint64_t), sig, 1, SHMEM_SIGNAL_SET, peer);
  if (threadIdx.x == 0) {
    shmem_uint64_wait_until(sig, SHMEM_CMP_EQ, 1);
    printf("gpu_printf_setup: device printf from pe %d\n", shmem_my_pe());
  }
}

__global__ void fill(uint64_t* p, size_t n, uint64_t seed, int pe) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) p[i] = payload(seed, pe, i);
}
}  // namespace

int main(int argc, char** argv) {
  skip_without_gpu();
  const bool on = argc > 1 && !strcmp(argv[1], "on");
  if (argc < 2 || (!on && strcmp(argv[1], "off"))) {
    fprintf(stderr, "usage: gpu_printf_setup on|off\n");
    return 2;
  }
  shmem_init();
  skip_unless_gpu_per_pe(2);
  require_device_heap();
  const int me = shmem_my_pe(), npes = shmem_n_pes();

  // Straight after shmem_init, before this program launches anything.
  const size_t want = 3u << 20;
  const cudaError_t e = cudaDeviceSetLimit(cudaLimitPrintfFifoSize, want);
  if (on && e != cudaErrorInvalidValue) {
    fprintf(stderr, "FAIL pe %d: setting the printf FIFO after shmem_init gave %s; expected %s (init sets it up)\n",
            me, cudaGetErrorName(e), cudaGetErrorName(cudaErrorInvalidValue));
    shmem_global_exit(1);
  }
  if (!on) {
    if (e != cudaSuccess) {
      fprintf(stderr, "FAIL pe %d: with GSHMEM_DEVICE_PRINTF_SETUP=0 setting the printf FIFO gave %s\n", me,
              cudaGetErrorName(e));
      shmem_global_exit(1);
    }
    size_t got = 0;
    CK(cudaDeviceGetLimit(&got, cudaLimitPrintfFifoSize));
    if (got < want) {
      fprintf(stderr, "FAIL pe %d: printf FIFO reads %zu after setting %zu\n", me, got, want);
      shmem_global_exit(1);
    }
  }
  cudaGetLastError();  // the refused call's error is expected in "on" mode

  const uint64_t seed = shared_seed();
  auto* src = static_cast<uint64_t*>(shmem_malloc(kWords * sizeof(uint64_t)));
  auto* dst = static_cast<uint64_t*>(shmem_malloc((kWords + 64) * sizeof(uint64_t)));
  auto* sig = static_cast<uint64_t*>(shmem_calloc(1, sizeof(uint64_t)));
  fill<<<8, 256>>>(src, kWords, seed, me);
  {
    uint64_t poison[kWords + 64];
    for (auto& w : poison) w = kPoison;
    CK(cudaMemcpy(dst, poison, sizeof poison, cudaMemcpyHostToDevice));
  }
  CK(cudaDeviceSynchronize());
  shmem_barrier_all();
  put_ring<<<1, 256>>>(dst, src, sig, (me + 1) % npes);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

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
  if (*bad) {
    fprintf(stderr, "FAIL pe %d: %llu words wrong in the payload from pe %d or the poison after it\n", me, *bad, left);
    shmem_global_exit(1);
  }
  shmem_barrier_all();
  if (me == 0) printf("gpu_printf_setup %s: ok (%d PEs)\n", on ? "on" : "off", npes);
  CK(cudaFree(bad));
  shmem_free(sig);
  shmem_free(dst);
  shmem_free(src);
  shmem_finalize();
  return 0;
}
