// 05_nvshmem_device: an NVSHMEM CUDA program, unchanged, on gshmem (docs/nvshmem.md): only
// <nvshmem.h>/<nvshmemx.h>, NVSHMEM's names and constants, no -rdc.
//
// A kernel ring: each round a block sends a fresh block of values to its right neighbour with
// nvshmemx_putmem_signal_nbi_block (NVSHMEM_SIGNAL_SET), waits with nvshmem_signal_wait_until
// (NVSHMEM_CMP_GE), checks every element and ends the round with a team barrier in the kernel
// (nvshmemx_barrier_block). Then a strided block put (nvshmemx_int_iput_block), a reduction and a
// team barrier on a stream, and the collective launch, each checked against every PE's part.
// Build: nvcc -arch=sm_90 05_nvshmem_device.cu $(pkg-config --cflags --libs gshmem-nvshmem)
// Run:   oshrun -np 2 ./a.out        (without a GPU it exits 77)
#include <nvshmem.h>
#include <nvshmemx.h>

#include <cstdint>
#include <cstdio>
#include <vector>

constexpr int kWords = 4096;
constexpr int kRounds = 16;
constexpr int kStrided = 100;

__device__ uint64_t value(uint64_t seed, int pe, int r, int i) {
  uint64_t z = seed ^ (uint64_t(pe) << 48) ^ (uint64_t(r) << 32) ^ uint64_t(i);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  return z ^ (z >> 27);
}

__global__ void ring(uint64_t* inbox, uint64_t* outbox, uint64_t* sig, uint64_t seed, unsigned long long* errors) {
  const int me = nvshmem_my_pe(), n = nvshmem_n_pes(), right = (me + 1) % n, left = (me + n - 1) % n;
  for (int r = 1; r <= kRounds; ++r) {
    for (int i = threadIdx.x; i < kWords; i += blockDim.x) outbox[i] = value(seed, me, r, i);
    __syncthreads();
    uint64_t* slot = inbox + (r & 1) * kWords;
    nvshmemx_putmem_signal_nbi_block(slot, outbox, kWords * sizeof(uint64_t), sig, r, NVSHMEM_SIGNAL_SET, right);
    if (threadIdx.x == 0) nvshmem_signal_wait_until(sig, NVSHMEM_CMP_GE, r);
    __syncthreads();
    for (int i = threadIdx.x; i < kWords; i += blockDim.x)
      if (slot[i] != value(seed, left, r, i)) atomicAdd(errors, 1ull);
    nvshmemx_barrier_block(NVSHMEM_TEAM_WORLD);
  }
}

__global__ void strided(int* dst, const int* src, int right) {
  nvshmemx_int_iput_block(dst, src, 3, 2, kStrided, right);  // dst[3i] = src[2i] on the right PE
  nvshmemx_barrier_block(NVSHMEM_TEAM_WORLD);
}

__global__ void coll_kernel(int* out, const int* in, int n) {
  nvshmemx_int_sum_reduce_block(NVSHMEM_TEAM_WORLD, out, in, n);
}

#define CK(x)                                                                            \
  do {                                                                                   \
    cudaError_t e_ = (x);                                                                \
    if (e_ != cudaSuccess) {                                                             \
      fprintf(stderr, "FAIL 05_nvshmem_device: %s: %s\n", #x, cudaGetErrorString(e_));   \
      nvshmem_global_exit(1);                                                            \
    }                                                                                    \
  } while (0)

int main() {
  int ngpus = 0;
  if (cudaGetDeviceCount(&ngpus) != cudaSuccess || ngpus == 0) {
    printf("05_nvshmem_device needs a GPU; 04_nvshmem_host runs on CPU PEs\n");
    return 77;
  }
  nvshmem_init();
  const int me = nvshmem_my_pe(), n = nvshmem_n_pes(), right = (me + 1) % n, left = (me + n - 1) % n;
  int fails = 0;
  auto check = [&](bool ok, const char* what, long long expected, long long got) {
    if (!ok) {
      fprintf(stderr, "FAIL 05_nvshmem_device: pe %d: %s (expected %lld got %lld)\n", me, what, expected, got);
      ++fails;
    }
  };
  cudaStream_t st;
  CK(cudaStreamCreate(&st));

  // 1. ring of signalled block puts, team barrier inside the kernel
  auto* inbox = static_cast<uint64_t*>(nvshmem_malloc(2 * kWords * sizeof(uint64_t)));
  auto* outbox = static_cast<uint64_t*>(nvshmem_malloc(kWords * sizeof(uint64_t)));
  auto* sig = static_cast<uint64_t*>(nvshmem_calloc(1, sizeof(uint64_t)));
  unsigned long long* errors;
  CK(cudaMalloc(&errors, sizeof *errors));
  CK(cudaMemset(errors, 0, sizeof *errors));
  const uint64_t seed = 0x243F6A8885A308D3ull ^ uint64_t(time(nullptr));
  uint64_t* seeds = static_cast<uint64_t*>(nvshmem_malloc(sizeof(uint64_t)));
  CK(cudaMemcpy(seeds, &seed, sizeof seed, cudaMemcpyHostToDevice));
  nvshmemx_uint64_broadcast_on_stream(NVSHMEM_TEAM_WORLD, seeds, seeds, 1, 0, st);  // everyone uses PE 0's
  uint64_t common = 0;
  CK(cudaMemcpyAsync(&common, seeds, sizeof common, cudaMemcpyDeviceToHost, st));
  CK(cudaStreamSynchronize(st));
  nvshmem_barrier_all();
  ring<<<1, 512, 0, st>>>(inbox, outbox, sig, common, errors);
  CK(cudaStreamSynchronize(st));
  unsigned long long nerr = 0;
  CK(cudaMemcpy(&nerr, errors, sizeof nerr, cudaMemcpyDeviceToHost));
  check(nerr == 0, "elements of the left neighbour's blocks that differ", 0, (long long)nerr);

  // 2. strided block put
  int* sdst = static_cast<int*>(nvshmem_malloc(3 * kStrided * sizeof(int)));
  int* ssrc = static_cast<int*>(nvshmem_malloc(2 * kStrided * sizeof(int)));
  std::vector<int> h(2 * kStrided), got(3 * kStrided);
  for (int i = 0; i < 2 * kStrided; ++i) h[i] = int(common % 1000) * 1000 + me * 100000 + i;
  CK(cudaMemcpy(ssrc, h.data(), h.size() * sizeof(int), cudaMemcpyHostToDevice));
  CK(cudaMemset(sdst, 0xff, 3 * kStrided * sizeof(int)));
  nvshmem_barrier_all();
  strided<<<1, 128, 0, st>>>(sdst, ssrc, right);
  CK(cudaStreamSynchronize(st));
  CK(cudaMemcpy(got.data(), sdst, got.size() * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 3 * kStrided; ++i) {
    const int e = i % 3 == 0 ? int(common % 1000) * 1000 + left * 100000 + 2 * (i / 3) : -1;
    check(got[i] == e, "nvshmemx_int_iput_block element", e, got[i]);
    if (got[i] != e) break;
  }

  // 3. reductions: on a stream, and in a kernel started by the collective launch
  int *rin = static_cast<int*>(nvshmem_malloc(64 * sizeof(int))), *rout = static_cast<int*>(nvshmem_malloc(64 * sizeof(int)));
  std::vector<int> part(64), sum(64);
  for (int i = 0; i < 64; ++i) part[i] = (me + 1) * 1000 + i;
  CK(cudaMemcpy(rin, part.data(), part.size() * sizeof(int), cudaMemcpyHostToDevice));
  nvshmemx_barrier_on_stream(NVSHMEM_TEAM_WORLD, st);
  nvshmemx_int_sum_reduce_on_stream(NVSHMEM_TEAM_WORLD, rout, rin, 64, st);
  CK(cudaMemcpyAsync(sum.data(), rout, sum.size() * sizeof(int), cudaMemcpyDeviceToHost, st));
  CK(cudaStreamSynchronize(st));
  for (int i = 0; i < 64; ++i) {
    const int e = 1000 * n * (n + 1) / 2 + n * i;
    check(sum[i] == e, "nvshmemx_int_sum_reduce_on_stream element", e, sum[i]);
    if (sum[i] != e) break;
  }
  CK(cudaMemset(rout, 0, 64 * sizeof(int)));
  int cnt = 64;
  void* args[] = {&rout, &rin, &cnt};
  nvshmemx_barrier_all_on_stream(st);
  check(nvshmemx_collective_launch((const void*)coll_kernel, 1, 256, args, 0, st) == 0, "nvshmemx_collective_launch", 0, 1);
  CK(cudaMemcpyAsync(sum.data(), rout, sum.size() * sizeof(int), cudaMemcpyDeviceToHost, st));
  CK(cudaStreamSynchronize(st));
  for (int i = 0; i < 64; ++i) {
    const int e = 1000 * n * (n + 1) / 2 + n * i;
    check(sum[i] == e, "nvshmemx_int_sum_reduce_block element", e, sum[i]);
    if (sum[i] != e) break;
  }

  nvshmem_barrier_all();
  if (fails) nvshmem_global_exit(1);
  if (me == 0) printf("05_nvshmem_device: %d PEs: kernel ring, strided block put, reductions: PASS\n", n);
  nvshmem_free(inbox);
  nvshmem_free(outbox);
  nvshmem_free(sig);
  CK(cudaFree(errors));
  CK(cudaStreamDestroy(st));
  nvshmem_finalize();
  return 0;
}
