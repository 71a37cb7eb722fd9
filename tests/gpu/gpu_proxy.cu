// The proxy path from device code (run with GSHMEM_FORCE_PROXY=1, GSHMEM_PROXY_ENGINE=auto or
// tcp, and a small FIFO so producers meet backpressure; without the proxy the same checks run
// over NVLink). Every thread of a large grid pushes puts (inline and copied), p's and fetch-adds
// to the next PE without waiting: far more than 100k triggers through the ring. Then: data,
// exact counter, distinct fetch-add results; gets of every size into global and local memory,
// g, iput from shared memory, iget; every atomic at 4 and 8 bytes; put_signal with its data
// checked at the waiter; nbi puts left in flight when a kernel ends, completed by the host's
// barrier; large puts (concurrent copy streams) ordered by fence and put_signal. Run: oshrun -np N gpu_proxy [expect-proxy]
#include "gpu_util.cuh"

#include <algorithm>
#include <cstring>
#include <vector>

namespace {
constexpr int kBlocks = 64, kThreads = 128, kIters = 16;  // 131072 operations of each kind per PE
constexpr int kProducers = kBlocks * kThreads;
constexpr size_t kBytes = 40;  // per put: 16 inline + 24 copied from global memory

// Thread t, iteration i: put kBytes (two puts: an inline 16 and a copied 24) into slot (t, i)
// of the right PE's recv, p one word into words[t * kIters + i], fetch-add counter.
__global__ void storm(char* recv, const char* src, uint64_t* words, unsigned long long* counter,
                      unsigned long long* fetched, uint64_t seed, int me, int right) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < kIters; ++i) {
    const size_t slot = static_cast<size_t>(t) * kIters + i;
    shmem_putmem_nbi(recv + slot * kBytes, src + slot * kBytes, 16, right);
    shmem_putmem_nbi(recv + slot * kBytes + 16, src + slot * kBytes + 16, kBytes - 16, right);
    shmem_uint64_p(words + slot, payload(seed ^ 7, me, slot), right);
    fetched[slot] = shmem_ulonglong_atomic_fetch_add(counter, 1ull, right);
  }
  shmem_quiet();
}

__global__ void check_recv(const char* recv, const uint64_t* words, uint64_t seed, int from,
                           unsigned long long* bad) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < kIters; ++i) {
    const size_t slot = static_cast<size_t>(t) * kIters + i;
    for (size_t b = 0; b < kBytes; ++b)
      if (static_cast<unsigned char>(recv[slot * kBytes + b]) !=
          static_cast<unsigned char>(payload(seed, from, slot * kBytes + b)))
        atomicAdd(bad, 1ull);
    if (words[slot] != payload(seed ^ 7, from, slot)) atomicAdd(bad, 1ull);
  }
}

__global__ void fill_bytes(char* p, size_t n, uint64_t seed, int pe) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    p[i] = static_cast<char>(payload(seed, pe, i));
}

// Gets of 1..300 bytes from the right PE's src into global memory (out) and into a local array,
// g of every width, iget; iput of a shared-memory array; shmem_ptr.
__global__ void gets(const char* src, char* out, char* iput_dst, uint64_t seed, int me, int right,
                     unsigned long long* bad, int* ptr_null) {
  __shared__ uint32_t sh[64];
  if (threadIdx.x != 0) return;
  for (size_t n = 1; n <= 300; n = n < 20 ? n + 1 : n * 2) {
    for (size_t i = 0; i < n; ++i) out[i] = 0x5a;
    shmem_getmem(out, src + 7, n, right);
    char loc[300];
    shmem_getmem(loc, src + 3, n, right);
    for (size_t i = 0; i < n; ++i) {
      if (static_cast<unsigned char>(out[i]) != static_cast<unsigned char>(payload(seed, right, 7 + i))) atomicAdd(bad, 1ull);
      if (static_cast<unsigned char>(loc[i]) != static_cast<unsigned char>(payload(seed, right, 3 + i))) atomicAdd(bad, 1ull);
    }
  }
  const uint64_t g8 = shmem_uint64_g(reinterpret_cast<const uint64_t*>(src + 64), right);
  const uint16_t g2 = shmem_uint16_g(reinterpret_cast<const uint16_t*>(src + 2), right);
  uint64_t want8 = 0;
  for (int b = 0; b < 8; ++b) want8 |= static_cast<uint64_t>(static_cast<unsigned char>(payload(seed, right, 64 + b))) << (8 * b);
  const uint16_t want2 = static_cast<uint16_t>(static_cast<unsigned char>(payload(seed, right, 2)) |
                                               (static_cast<unsigned char>(payload(seed, right, 3)) << 8));
  if (g8 != want8 || g2 != want2) atomicAdd(bad, 1000ull);
  uint32_t ig[10];
  shmem_uint32_iget(ig, reinterpret_cast<const uint32_t*>(src), 1, 3, 10, right);
  for (int i = 0; i < 10; ++i) {
    uint32_t want = 0;
    for (int b = 0; b < 4; ++b) want |= static_cast<uint32_t>(static_cast<unsigned char>(payload(seed, right, 12 * i + b))) << (8 * b);
    if (ig[i] != want) atomicAdd(bad, 10000ull);
  }
  for (int i = 0; i < 64; ++i) sh[i] = static_cast<uint32_t>(payload(seed ^ 3, me, i));
  shmem_uint32_iput(reinterpret_cast<uint32_t*>(iput_dst), sh, 2, 1, 32, right);
  shmem_putmem(iput_dst + 512, sh, 200, right);  // from shared memory: goes inline, 16 bytes a time
  shmem_quiet();
  *ptr_null = shmem_ptr(src, right) == nullptr;
}

__global__ void check_iput(const char* iput_dst, uint64_t seed, int from, unsigned long long* bad) {
  const uint32_t* d = reinterpret_cast<const uint32_t*>(iput_dst);
  for (int i = 0; i < 32; ++i)
    if (d[2 * i] != static_cast<uint32_t>(payload(seed ^ 3, from, i))) atomicAdd(bad, 1ull);
  const uint32_t* e = reinterpret_cast<const uint32_t*>(iput_dst + 512);
  for (int i = 0; i < 50; ++i)
    if (e[i] != static_cast<uint32_t>(payload(seed ^ 3, from, i))) atomicAdd(bad, 1ull);
}

// Every atomic on the right PE's words (4 and 8 bytes), results checked in order.
__global__ void atomics(int32_t* a32, long long* a64, int right, unsigned long long* bad) {
  if (threadIdx.x != 0) return;
  shmem_int32_atomic_set(a32, -5, right);
  shmem_longlong_atomic_set(a64, -1ll, right);  // all ones: must not read as an empty slot
  if (shmem_int32_atomic_fetch(a32, right) != -5) atomicAdd(bad, 1ull);
  if (shmem_longlong_atomic_swap(a64, 1ll << 40, right) != -1ll) atomicAdd(bad, 2ull);
  if (shmem_longlong_atomic_compare_swap(a64, 1ll << 40, 77, right) != (1ll << 40)) atomicAdd(bad, 4ull);
  if (shmem_longlong_atomic_compare_swap(a64, 1ll << 40, 99, right) != 77) atomicAdd(bad, 8ull);  // fails
  if (shmem_int32_atomic_fetch_add(a32, 10, right) != -5) atomicAdd(bad, 16ull);
  shmem_int32_atomic_add(a32, 1, right);
  if (shmem_int32_atomic_fetch_inc(a32, right) != 6) atomicAdd(bad, 32ull);
  if (shmem_int32_atomic_fetch_and(a32, 0x6, right) != 7) atomicAdd(bad, 64ull);
  if (shmem_int32_atomic_fetch_or(a32, 0x30, right) != 6) atomicAdd(bad, 128ull);
  if (shmem_int32_atomic_fetch_xor(a32, 0xff, right) != 0x36) atomicAdd(bad, 256ull);
  if (shmem_int32_atomic_fetch(a32, right) != (0x36 ^ 0xff)) atomicAdd(bad, 512ull);
  if (shmem_longlong_atomic_fetch(a64, right) != 77) atomicAdd(bad, 1024ull);
}

// Ping-pong with put_signal: PE 0 sends round r's data + signal r to PE 1, which checks the data
// and answers with its own; rounds of growing size (inline and copied).
__global__ void pingpong(char* buf, const char* src, uint64_t* sig, uint64_t seed, int me, int peer, int rounds,
                         unsigned long long* bad) {
  if (threadIdx.x != 0) return;
  for (int r = 1; r <= rounds; ++r) {
    const size_t n = 1 + (static_cast<size_t>(r) * 37) % 4096;
    const bool send_first = me == 0;
    for (int leg = 0; leg < 2; ++leg) {
      const bool sending = (leg == 0) == send_first;
      if (sending) {
        shmem_putmem_signal(buf, src + r, n, sig, static_cast<uint64_t>(r), SHMEM_SIGNAL_SET, peer);
      } else {
        shmem_signal_wait_until(sig, SHMEM_CMP_GE, static_cast<uint64_t>(r));
        for (size_t i = 0; i < n; ++i)
          if (static_cast<unsigned char>(reinterpret_cast<volatile char*>(buf)[i]) !=
              static_cast<unsigned char>(payload(seed, peer, r + i)))
            atomicAdd(bad, 1ull);
      }
    }
  }
}

// Single operations first (a failure here names the first kind that does not work).
__global__ void step(int k, int* x, char* buf, const char* src, int right, unsigned long long* bad) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  switch (k) {
    case 0: shmem_int_p(x + t, 5 + t, right); shmem_quiet(); break;
    case 1: shmem_putmem(buf, src, 1024, right); shmem_quiet(); break;
    case 2: if (shmem_int_g(x + t, right) != 5 + t) atomicAdd(bad, 1ull); break;
    case 3: shmem_int_atomic_fetch_add(x + 1000, 1, right); shmem_quiet(); break;
    default: break;
  }
}

// nbi puts, no quiet in the kernel: the host's barrier completes them.
__global__ void leave_in_flight(char* dst, const char* src, size_t n, int right) {
  shmemx_putmem_nbi_block(dst + blockIdx.x * n, src + blockIdx.x * n, n, right);
}

// Large puts, which the copy-engine proxy runs concurrently on several streams per PE and merges
// when adjacent: each round puts a stale 8 MiB, then after a fence the fresh data over it, as a
// 256 KiB tail (from its own buffer, so it cannot merge with the rest) and the 8 MiB - 256 KiB
// head, then four 256 KiB pieces and a 256 KiB put_signal. Without the fence the small tail copy
// would finish long before the stale 8 MiB and be overwritten. The left PE's data is checked
// here at the signal (the fresh payload everywhere: the fence kept the stale copy from landing
// last, the signal came after every piece), poisoned, and acked so that the next round may
// overwrite it.
constexpr size_t kBig = 8 << 20, kPiece = 256 << 10, kBigTotal = kBig + 5 * kPiece;
__global__ void big_rounds(char* dst, const char* stale, const char* fresh, const char* tail, uint64_t* sig, uint64_t* ack,
                           uint64_t seed, int right, int left, int rounds, unsigned long long* bad) {
  for (int r = 1; r <= rounds; ++r) {
    if (threadIdx.x == 0) {
      shmem_putmem_nbi(dst, stale, kBig, right);
      shmem_fence();
      shmem_putmem_nbi(dst + kBig - kPiece, tail, kPiece, right);
      shmem_putmem_nbi(dst, fresh, kBig - kPiece, right);
      for (size_t k = 0; k < 4; ++k) shmem_putmem_nbi(dst + kBig + k * kPiece, fresh + kBig + k * kPiece, kPiece, right);
      shmem_putmem_signal_nbi(dst + kBig + 4 * kPiece, fresh + kBig + 4 * kPiece, kPiece, sig, r, SHMEM_SIGNAL_SET,
                              right);
      shmem_signal_wait_until(sig, SHMEM_CMP_GE, r);
    }
    __syncthreads();
    for (size_t i = threadIdx.x; i < kBigTotal; i += blockDim.x) {
      if (static_cast<unsigned char>(reinterpret_cast<volatile char*>(dst)[i]) !=
          static_cast<unsigned char>(payload(seed, left, i)))
        atomicAdd(bad, 1ull);
      dst[i] = 0x5a;
    }
    __threadfence_system();
    __syncthreads();
    if (threadIdx.x == 0) {
      shmem_uint64_p(ack, r, left);
      shmem_uint64_wait_until(ack, SHMEM_CMP_GE, r);
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) shmem_quiet();
}
}  // namespace

int main(int argc, char** argv) {
  skip_without_gpu();
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes(), right = (me + 1) % npes, left = (me + npes - 1) % npes;
  skip_unless_gpu_per_pe(2);
  const bool expect_proxy = argc > 1 && strcmp(argv[1], "expect-proxy") == 0;
  const uint64_t seed = shared_seed();
  unsigned long long *bad, *counter_h;
  int* ptr_null;
  CK(cudaMallocManaged(&bad, sizeof *bad));
  CK(cudaMallocManaged(&counter_h, sizeof *counter_h));
  CK(cudaMallocManaged(&ptr_null, sizeof *ptr_null));
  *bad = 0;

  // 0. single operations, one thread, then a warp, then 4 blocks
  {
    int* x = static_cast<int*>(shmem_calloc(2048, sizeof(int)));
    char* b0 = static_cast<char*>(shmem_malloc(4096));
    char* s0 = static_cast<char*>(shmem_malloc(4096));
    const char* names[] = {"p+quiet", "putmem 1 KiB", "g", "fetch_add"};
    const int grids[][2] = {{1, 1}, {1, 32}, {4, 128}};
    for (auto& gdim : grids)
      for (int k = 0; k < 4; ++k) {
        shmem_barrier_all();
        step<<<gdim[0], gdim[1]>>>(k, x, b0, s0, right, bad);
        CK(cudaDeviceSynchronize());
        shmem_barrier_all();
        if (me == 0) printf("gpu_proxy: %s x %d threads done\n", names[k], gdim[0] * gdim[1]), fflush(stdout);
      }
    EXPECT(*bad == 0, "single g: %llu wrong", *bad);
    *bad = 0;
  }

  // 1. the storm
  const size_t slots = static_cast<size_t>(kProducers) * kIters;
  char* recv = static_cast<char*>(shmem_malloc(slots * kBytes));
  char* src = static_cast<char*>(shmem_malloc(slots * kBytes));
  uint64_t* words = static_cast<uint64_t*>(shmem_malloc(slots * 8));
  unsigned long long* counter = static_cast<unsigned long long*>(shmem_calloc(1, 8));
  unsigned long long* fetched;
  CK(cudaMalloc(&fetched, slots * 8));
  fill_bytes<<<128, 256>>>(src, slots * kBytes, seed, me);
  CK(cudaMemset(recv, 0xa5, slots * kBytes));
  CK(cudaMemset(words, 0xa5, slots * 8));
  CK(cudaDeviceSynchronize());
  shmem_barrier_all();
  storm<<<kBlocks, kThreads>>>(recv, src, words, counter, fetched, seed, me, right);
  CK(cudaDeviceSynchronize());
  shmem_barrier_all();
  check_recv<<<kBlocks, kThreads>>>(recv, words, seed, left, bad);
  CK(cudaDeviceSynchronize());
  EXPECT(*bad == 0, "storm: %llu bytes/words differ from pe %d's payload", *bad, left);
  CK(cudaMemcpy(counter_h, counter, 8, cudaMemcpyDeviceToHost));
  EXPECT(*counter_h == slots, "storm: counter %llu, want %zu (one fetch-add per operation from pe %d)", *counter_h,
         slots, left);
  std::vector<unsigned long long> got(slots);
  CK(cudaMemcpy(got.data(), fetched, slots * 8, cudaMemcpyDeviceToHost));
  std::sort(got.begin(), got.end());
  size_t wrong = 0;
  for (size_t i = 0; i < slots; ++i) wrong += got[i] != i;
  EXPECT(wrong == 0, "storm: fetch-add results are not 0..%zu (%zu differ)", slots - 1, wrong);
  *bad = 0;
  if (me == 0) printf("gpu_proxy: storm done\n"), fflush(stdout);

  // 2. gets, g, iget, iput from shared memory, shmem_ptr
  char* out;
  CK(cudaMalloc(&out, 512));
  char* iput_dst = static_cast<char*>(shmem_calloc(1024, 1));
  shmem_barrier_all();
  gets<<<1, 32>>>(src, out, iput_dst, seed, me, right, bad, ptr_null);
  CK(cudaDeviceSynchronize());
  shmem_barrier_all();
  check_iput<<<1, 1>>>(iput_dst, seed, left, bad);
  CK(cudaDeviceSynchronize());
  EXPECT(*bad == 0, "gets/g/iget/iput: bad %llu", *bad);
  EXPECT(*ptr_null == (expect_proxy ? 1 : 0), "shmem_ptr to pe %d is %s with%s the proxy", right,
         *ptr_null ? "NULL" : "an address", expect_proxy ? "" : "out");
  *bad = 0;

  // 3. atomics
  int32_t* a32 = static_cast<int32_t*>(shmem_calloc(1, sizeof(int32_t)));
  long long* a64 = static_cast<long long*>(shmem_calloc(1, sizeof(long long)));
  shmem_barrier_all();
  if (me == 0) atomics<<<1, 32>>>(a32, a64, right, bad);
  CK(cudaDeviceSynchronize());
  shmem_barrier_all();
  EXPECT(*bad == 0, "atomics: failed checks mask 0x%llx", *bad);
  *bad = 0;

  // 4. put_signal ping-pong between PEs 0 and 1
  char* buf = static_cast<char*>(shmem_malloc(8192));
  uint64_t* sig = static_cast<uint64_t*>(shmem_calloc(1, 8));
  shmem_barrier_all();
  if (me < 2) pingpong<<<1, 32>>>(buf, src, sig, seed, me, 1 - me, 200, bad);
  CK(cudaDeviceSynchronize());
  shmem_barrier_all();
  EXPECT(*bad == 0, "put_signal ping-pong: %llu bytes wrong at the waiter", *bad);
  *bad = 0;

  // 5. nbi puts in flight after the kernel: the host barrier completes them
  const size_t n5 = 1 << 16;
  CK(cudaMemset(recv, 0, 16 * n5));
  CK(cudaDeviceSynchronize());
  shmem_barrier_all();
  leave_in_flight<<<16, 256>>>(recv, src, n5, right);
  CK(cudaDeviceSynchronize());
  shmem_barrier_all();
  std::vector<unsigned char> h(16 * n5);
  CK(cudaMemcpy(h.data(), recv, h.size(), cudaMemcpyDeviceToHost));
  size_t diff = 0;
  for (size_t i = 0; i < h.size(); ++i) diff += h[i] != static_cast<unsigned char>(payload(seed, left, i));
  EXPECT(diff == 0, "nbi puts left in flight by a kernel: %zu bytes differ after shmem_barrier_all", diff);

  // 6. large puts over several copy streams: fence and put_signal order them
  {
    char* bdst = static_cast<char*>(shmem_malloc(kBigTotal));
    char* fresh = static_cast<char*>(shmem_malloc(kBigTotal));
    char* stale = static_cast<char*>(shmem_malloc(kBig));
    char* tail = static_cast<char*>(shmem_malloc(kPiece));  // fresh's bytes [kBig - kPiece, kBig)
    uint64_t* bsig = static_cast<uint64_t*>(shmem_calloc(2, 8));
    fill_bytes<<<128, 256>>>(fresh, kBigTotal, seed, me);
    fill_bytes<<<128, 256>>>(stale, kBig, seed ^ 99, me);
    CK(cudaMemcpy(tail, fresh + kBig - kPiece, kPiece, cudaMemcpyDeviceToDevice));
    CK(cudaMemset(bdst, 0x5a, kBigTotal));
    CK(cudaDeviceSynchronize());
    *bad = 0;
    shmem_barrier_all();
    big_rounds<<<1, 256>>>(bdst, stale, fresh, tail, bsig, bsig + 1, seed, right, left, 30, bad);
    CK(cudaDeviceSynchronize());
    shmem_barrier_all();
    EXPECT(*bad == 0, "large puts: %llu bytes from pe %d are not the fresh payload at its signal (fence or "
           "put_signal did not order the copies)", *bad, left);
    *bad = 0;
    if (me == 0) printf("gpu_proxy: large puts with fence and put_signal done\n"), fflush(stdout);
  }

  shmem_barrier_all();
  if (me == 0) printf("gpu_proxy: %d PEs, proxy %s: %s\n", npes, expect_proxy ? "forced" : "off", g_failures ? "FAILED" : "ok");
  shmem_finalize();
  return g_failures ? 1 : 0;
}
