// The device copy at its path boundaries (device/gshmem/impl/rma.cuh): put and get of one thread,
// one warp and one block (256 and 1024 threads) at sizes on both sides of every short-path limit
// (one 16-byte word per thread, four per thread, one 8-byte word per thread) and through the
// general loop, with both ends aligned to 16, to 8 only, to 4 only, and misaligned. Each case
// poisons the destination, moves a fresh random payload, and checks every byte of the range and
// the guard bytes around it. Run: oshrun -np N gpu_copy (N >= 2, one GPU per PE).
#include "gpu_util.cuh"

#include <vector>

namespace {
constexpr size_t kSpan = (256 << 10) + 256;  // every case fits, offsets included
constexpr unsigned char kPoison = 0xA5;

__host__ __device__ inline unsigned char byte_of(uint64_t seed, int pe, size_t i) {
  return static_cast<unsigned char>(payload(seed, pe, i) >> 17);
}

__global__ void fill(unsigned char* p, size_t n, uint64_t seed, int pe) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) p[i] = byte_of(seed, pe, i);
}

enum Scope { kThread, kWarp, kBlock };

// A blocking put (then quiet by one thread) or get by the scope. 1024-thread launches need the
// launch bound (docs/gpu.md).
template <int S, bool Put>
__global__ void __launch_bounds__(1024) xfer_k(char* d, const char* s, size_t n, int pe) {
  if (S == kThread) {
    if (threadIdx.x == 0) Put ? shmem_putmem(d, s, n, pe) : shmem_getmem(d, s, n, pe);
  } else if (S == kWarp) {
    if (threadIdx.x < 32) Put ? shmemx_putmem_warp(d, s, n, pe) : shmemx_getmem_warp(d, s, n, pe);
  } else {
    Put ? shmemx_putmem_block(d, s, n, pe) : shmemx_getmem_block(d, s, n, pe);
  }
  if (Put) {
    __syncthreads();
    if (threadIdx.x == 0) shmem_quiet();
  }
}

// Counts bytes of buf[0, kSpan) that differ from what the case must leave: owner's payload from
// src_off on in [dst_off, dst_off + n), the poison elsewhere; *first: the lowest wrong index.
__global__ void check(const unsigned char* buf, size_t dst_off, size_t src_off, size_t n, uint64_t seed, int owner,
                      unsigned long long* bad, unsigned long long* first) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < kSpan; i += gridDim.x * blockDim.x) {
    const bool in = i >= dst_off && i < dst_off + n;
    const unsigned char want = in ? byte_of(seed, owner, src_off + (i - dst_off)) : kPoison;
    if (buf[i] != want) {
      atomicAdd(bad, 1ull);
      atomicMin(first, static_cast<unsigned long long>(i));
    }
  }
}

struct Case {
  int scope, threads;
  size_t n;
};
}  // namespace

int main() {
  skip_without_gpu();
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes(), right = (me + 1) % npes, left = (me + npes - 1) % npes;
  skip_unless_gpu_per_pe(2);
  require_device_heap();
  const uint64_t seed = shared_seed();

  char* src = static_cast<char*>(shmem_malloc(kSpan));
  char* dst = static_cast<char*>(shmem_malloc(kSpan));
  char* local;
  unsigned long long *bad, *first;
  CK(cudaMalloc(&local, kSpan));
  CK(cudaMalloc(&bad, 8));
  CK(cudaMalloc(&first, 8));
  fill<<<64, 256>>>(reinterpret_cast<unsigned char*>(src), kSpan, seed, me);
  CK(cudaDeviceSynchronize());

  // Sizes on both sides of each short-path limit for the launch's thread count (16 x threads,
  // 64 x threads, 8 x threads), plus odd sizes and general-loop sizes.
  std::vector<Case> cases;
  for (size_t n : {1, 7, 8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 128, 1000}) cases.push_back({kThread, 1, n});
  for (size_t n : {8, 24, 256, 264, 512, 520, 1024, 2048, 2056, 2064, 4096, 5000}) cases.push_back({kWarp, 32, n});
  for (int t : {256, 1024})
    for (size_t n : {size_t(8), size_t(1024), 8 * size_t(t), 8 * size_t(t) + 8, 16 * size_t(t), 16 * size_t(t) + 16,
                     16 * size_t(t) + 8, 64 * size_t(t), 64 * size_t(t) + 16, 64 * size_t(t) + 8, size_t(100003),
                     size_t(256) << 10})
      cases.push_back({kBlock, t, n});
  // (dst offset, src offset): both 16-aligned, 8 only, mixed 16/8, 4 only, the same odd
  // misalignment (head bytes, then 16-byte words), different misalignments (bytes).
  const size_t offs[][2] = {{0, 0}, {8, 8}, {16, 8}, {4, 4}, {1, 1}, {3, 5}};

  using K = void (*)(char*, const char*, size_t, int);
  const K puts[] = {xfer_k<kThread, true>, xfer_k<kWarp, true>, xfer_k<kBlock, true>};
  const K gets[] = {xfer_k<kThread, false>, xfer_k<kWarp, false>, xfer_k<kBlock, false>};
  const char* scope_name[] = {"thread", "warp", "block"};
  int ran = 0;
  for (const Case& c : cases) {
    for (const auto& o : offs) {
      const size_t doff = o[0], soff = o[1];
      if (doff + c.n > kSpan || soff + c.n > kSpan) continue;
      for (int op = 0; op < 2; ++op) {
        // put: into the right neighbour's dst, checked there (this PE checks what left sent);
        // get: from the right neighbour's src into a private buffer, checked here.
        char* target = op == 0 ? dst : local;
        CK(cudaMemset(target, kPoison, kSpan));
        CK(cudaMemset(bad, 0, 8));
        CK(cudaMemset(first, 0xFF, 8));
        CK(cudaDeviceSynchronize());
        shmem_barrier_all();
        const K k = (op == 0 ? puts : gets)[c.scope];
        k<<<1, c.threads>>>(target + doff, src + soff, c.n, right);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        shmem_barrier_all();
        check<<<64, 256>>>(reinterpret_cast<const unsigned char*>(target), doff, soff, c.n, seed,
                           op == 0 ? left : right, bad, first);
        unsigned long long nbad = 0, at = 0;
        CK(cudaMemcpy(&nbad, bad, 8, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(&at, first, 8, cudaMemcpyDeviceToHost));
        EXPECT(nbad == 0, "%s %s, %d threads, %zu bytes, dst offset %zu, src offset %zu: %llu wrong bytes, first at %llu",
               op == 0 ? "put" : "get", scope_name[c.scope], c.threads, c.n, doff, soff, nbad, at);
        ++ran;
      }
    }
  }
  shmem_barrier_all();
  if (me == 0) printf("gpu_copy: %d cases, %d failures on pe 0\n", ran, g_failures);
  shmem_free(dst);
  shmem_free(src);
  CK(cudaFree(local));
  shmem_finalize();
  return g_failures ? 1 : 0;
}
