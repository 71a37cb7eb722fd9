// The device API on 2..N GPU PEs: every scope of put/get, p/g, strided, atomics under contention,
// put_signal rings, waits, in-kernel barriers, message-passing litmus, host-side and on-stream
// operations on the device heap, and heap growth. Run: oshrun -np N gpu_api
#include "gpu_util.cuh"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {
constexpr size_t kWords = 1 << 16;  // 512 KiB per buffer

__global__ void fill(uint64_t* p, size_t n, uint64_t seed, int pe) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) p[i] = payload(seed, pe, i);
}
__global__ void poison(uint64_t* p, size_t n) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) p[i] = 0xA5A5A5A5A5A5A5A5ull;
}

// mode 0: one thread, typed put; 1: warp putmem; 2: block putmem (one block per chunk); 3: nbi + quiet
__global__ void put_kernel(uint64_t* dst, const uint64_t* src, size_t n, int pe, int mode) {
  const size_t chunk = n / gridDim.x, off = blockIdx.x * chunk;
  if (mode == 0) {
    if (threadIdx.x == 0) shmem_uint64_put(dst + off, src + off, chunk, pe);
  } else if (mode == 1) {
    const int warp = threadIdx.x / 32, nw = blockDim.x / 32;
    const size_t wc = chunk / nw;
    shmemx_putmem_warp(dst + off + warp * wc, src + off + warp * wc, wc * 8, pe);
  } else if (mode == 2) {
    shmemx_uint64_put_block(dst + off, src + off, chunk, pe);
  } else {
    shmemx_putmem_nbi_block(dst + off, src + off, chunk * 8, pe);
    if (threadIdx.x == 0) shmem_quiet();
  }
}
__global__ void get_kernel(uint64_t* dst, const uint64_t* src, size_t n, int pe, int mode) {
  const size_t chunk = n / gridDim.x, off = blockIdx.x * chunk;
  if (mode == 0) {
    if (threadIdx.x == 0) shmem_getmem(dst + off, src + off, chunk * 8, pe);
  } else {
    shmemx_getmem_block(dst + off, src + off, chunk * 8, pe);
  }
}
// Every thread p's one element and g's one back from the other side.
__global__ void pg_kernel(uint32_t* sym, size_t n, uint64_t seed, int me, int right, int left,
                          unsigned long long* bad) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    shmem_uint32_p(sym + i, static_cast<uint32_t>(payload(seed, me, i)), right);
  }
  __syncthreads();
  if (threadIdx.x == 0) shmem_quiet();
  (void)left;
  (void)bad;
}
__global__ void g_kernel(const uint32_t* sym, size_t n, uint64_t seed, int right, unsigned long long* bad) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    // right holds what right's left neighbour (this PE) p'd; g reads it back remotely.
    uint32_t v = shmem_uint32_g(sym + i, right);
    if (v != static_cast<uint32_t>(payload(seed, shmem_my_pe(), i))) atomicAdd(bad, 1ull);
  }
}
__global__ void strided_kernel(int32_t* dst, const int32_t* src, size_t n, int pe) {
  if (threadIdx.x == 0 && blockIdx.x == 0) shmem_int32_iput(dst, src, 3, 2, n, pe);
}
// All threads of all PEs take tickets from one counter on PE 0 and mark them in a bitmap there.
__global__ void contention(unsigned long long* counter, unsigned long long* bitmap, unsigned long long* dup) {
  unsigned long long t = shmem_ulonglong_atomic_fetch_inc(counter, 0);
  unsigned long long bit = 1ull << (t % 64);
  unsigned long long old = shmem_ulonglong_atomic_fetch_or(bitmap + t / 64, bit, 0);
  if (old & bit) atomicAdd(dup, 1ull);
}
__global__ void amo_kernel(int64_t* a, uint32_t* b, double* d, int pe, unsigned long long* bad) {
  if (threadIdx.x || blockIdx.x) return;
  shmem_int64_atomic_set(a, 40, pe);
  if (shmem_int64_atomic_fetch_add(a, 2, pe) != 40) atomicAdd(bad, 1ull);
  if (shmem_int64_atomic_compare_swap(a, 42, 7, pe) != 42) atomicAdd(bad, 1ull);
  if (shmem_int64_atomic_compare_swap(a, 42, 9, pe) != 7) atomicAdd(bad, 1ull);  // fails, returns old
  if (shmem_int64_atomic_swap(a, -5, pe) != 7) atomicAdd(bad, 1ull);
  if (shmem_int64_atomic_fetch(a, pe) != -5) atomicAdd(bad, 1ull);
  shmem_uint32_atomic_set(b, 0xF0F0u, pe);
  shmem_uint32_atomic_and(b, 0x0FF0u, pe);
  shmem_uint32_atomic_or(b, 0x1u, pe);
  if (shmem_uint32_atomic_fetch_xor(b, 0xFFFFu, pe) != 0x00F1u) atomicAdd(bad, 1ull);
  if (shmem_uint32_atomic_fetch(b, pe) != (0x00F1u ^ 0xFFFFu)) atomicAdd(bad, 1ull);
  shmem_double_atomic_set(d, 2.5, pe);
  if (shmem_double_atomic_swap(d, -1.25, pe) != 2.5) atomicAdd(bad, 1ull);
  if (shmem_double_atomic_fetch(d, pe) != -1.25) atomicAdd(bad, 1ull);
  int64_t f = 0;
  shmem_int64_atomic_fetch_add_nbi(&f, a, 10, pe);
  shmem_quiet();
  if (f != -5 || shmem_int64_atomic_fetch(a, pe) != 5) atomicAdd(bad, 1ull);
}
// A ring: each round, block-scope put_signal of `words` to the right, wait for the left's.
__global__ void ring(uint64_t* buf, const uint64_t* src, size_t words, uint64_t* sig, int rounds, uint64_t seed,
                     unsigned long long* bad) {
  const int me = shmem_my_pe(), n = shmem_n_pes(), right = (me + 1) % n, left = (me + n - 1) % n;
  for (int r = 1; r <= rounds; ++r) {
    shmemx_putmem_signal_block(buf + (r & 1) * words, src, words * 8, sig, r, SHMEM_SIGNAL_SET, right);
    if (threadIdx.x == 0) shmem_signal_wait_until(sig, SHMEM_CMP_GE, r);
    __syncthreads();
    for (size_t i = threadIdx.x; i < words; i += blockDim.x)
      if (buf[(r & 1) * words + i] != payload(seed, left, i)) atomicAdd(bad, 1ull);
    // the left PE may not overwrite this half until this PE has checked it: the next round uses
    // the other half, and the round after that waits for this PE's next signal
    shmemx_barrier_all_block();
  }
}
__global__ void signal_op_kernel(uint64_t* sig, int right) {
  shmemx_signal_op(sig, 2, SHMEM_SIGNAL_ADD, right);
  shmemx_signal_op(sig + 1, 9, SHMEM_SIGNAL_SET, right);
}
__global__ void barrier_loop(long* counters, int iters, unsigned long long* bad) {
  if (threadIdx.x || blockIdx.x) return;
  const int n = shmem_n_pes();
  for (int it = 1; it <= iters; ++it) {
    for (int pe = 0; pe < n; ++pe) shmem_long_atomic_inc(counters, pe);
    shmem_barrier_all();
    if (shmem_long_atomic_fetch(counters, shmem_my_pe()) != static_cast<long>(n) * it) atomicAdd(bad, 1ull);
    shmem_barrier_all();
  }
}
// Message passing litmus: blocks [0,B) produce to the right, [B,2B) consume from the left.
// Producer: data (one 32-word slot, weak stores), fence, then flag=it (p); waits for ack=it.
// Consumer: wait flag>=it, read all 32 words (must all be it), ack=it to the left.
// Device code's view: is pe reached by loads and stores (shmem_ptr not NULL) or through the proxy?
// (The host's shmem_ptr answers for the host, which maps every heap of the node.)
__global__ void device_ptr_null(const void* p, int pe, int* out) { *out = shmem_ptr(p, pe) == nullptr; }
__global__ void litmus(uint32_t* data, uint64_t* flags, uint64_t* acks, int iters, unsigned long long* stale) {
  const int me = shmem_my_pe(), n = shmem_n_pes(), right = (me + 1) % n, left = (me + n - 1) % n;
  const int B = gridDim.x / 2;
  const bool producer = blockIdx.x < B;
  const int slot = blockIdx.x % B;
  const int lane = threadIdx.x;
  for (int it = 1; it <= iters; ++it) {
    if (producer) {
      shmem_uint32_p(data + slot * 32 + lane, static_cast<uint32_t>(it), right);
      __syncwarp();
      if (lane == 0) {
        shmem_fence();
        shmem_uint64_p(flags + slot, static_cast<uint64_t>(it), right);
        shmem_uint64_wait_until(acks + slot, SHMEM_CMP_GE, static_cast<uint64_t>(it));
      }
      __syncwarp();
    } else {
      if (lane == 0) shmem_uint64_wait_until(flags + slot, SHMEM_CMP_GE, static_cast<uint64_t>(it));
      __syncwarp();
      uint32_t v = *reinterpret_cast<volatile uint32_t*>(data + slot * 32 + lane);
      if (v != static_cast<uint32_t>(it)) atomicAdd(stale, 1ull);
      __syncwarp();
      if (lane == 0) shmem_uint64_p(acks + slot, static_cast<uint64_t>(it), left);
    }
  }
}

unsigned long long read_bad(unsigned long long* d) {
  unsigned long long h = 0;
  CK(cudaDeviceSynchronize());  // never block in cudaMemcpy while a kernel waits on the proxy (docs/gpu.md)
  CK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
  CK(cudaMemset(d, 0, sizeof h));
  return h;
}
}  // namespace

int main() {
  skip_without_gpu();
  shmem_init();
  const int me = shmem_my_pe(), n = shmem_n_pes(), right = (me + 1) % n, left = (me + n - 1) % n;
  skip_unless_gpu_per_pe();
  require_device_heap();
  const uint64_t seed = shared_seed();
  unsigned long long* bad;
  CK(cudaMalloc(&bad, sizeof *bad));
  CK(cudaMemset(bad, 0, sizeof *bad));

  uint64_t* src = static_cast<uint64_t*>(shmem_malloc(kWords * 8));
  uint64_t* dst = static_cast<uint64_t*>(shmem_malloc(kWords * 8));
  uint64_t* local;
  CK(cudaMalloc(&local, kWords * 8));
  fill<<<64, 256>>>(src, kWords, seed, me);
  CK(cudaDeviceSynchronize());

  // 1. put in every scope, then 2. get in two scopes
  progress("1. put in every scope, then 2. get in two scopes");
  const char* put_names[] = {"thread typed put", "warp putmem", "block typed put", "block putmem_nbi+quiet"};
  for (int mode = 0; mode < 4; ++mode) {
    progress(put_names[mode]);
    poison<<<64, 256>>>(dst, kWords);
    CK(cudaDeviceSynchronize());
    shmem_barrier_all();
    put_kernel<<<8, 128>>>(dst, src, kWords, right, mode);
    CK(cudaDeviceSynchronize());
    shmem_barrier_all();
    verify<<<64, 256>>>(dst, kWords, seed, left, bad);
    unsigned long long b = read_bad(bad);
    EXPECT(b == 0, "%s: %llu of %zu words wrong", put_names[mode], b, kWords);
  }
  for (int mode = 0; mode < 2; ++mode) {
    progress(mode ? "block get" : "thread get");
    poison<<<64, 256>>>(local, kWords);
    get_kernel<<<8, 128>>>(local, src, kWords, left, mode);
    verify<<<64, 256>>>(local, kWords, seed, left, bad);
    unsigned long long b = read_bad(bad);
    EXPECT(b == 0, "%s get: %llu words wrong", mode ? "block" : "thread", b);
  }

  // 3. p by every thread, g back remotely
  progress("3. p by every thread, g back remotely");
  uint32_t* sym32 = static_cast<uint32_t*>(shmem_malloc(kWords * 4));
  shmem_barrier_all();
  pg_kernel<<<32, 256>>>(sym32, kWords, seed, me, right, left, bad);
  CK(cudaDeviceSynchronize());
  shmem_barrier_all();
  g_kernel<<<32, 256>>>(sym32, kWords, seed, right, bad);
  EXPECT(read_bad(bad) == 0, "p/g round trip");

  // 4. strided iput of int32: dst[3i] = src[2i]
  progress("4. strided iput of int32: dst[3i] = src[2i]");
  int32_t* s32 = static_cast<int32_t*>(shmem_malloc(3000 * 4));
  int32_t* d32 = static_cast<int32_t*>(shmem_malloc(3000 * 4));
  {
    std::vector<int32_t> h(3000), out(3000, -1);
    for (int i = 0; i < 3000; ++i) h[i] = static_cast<int32_t>(payload(seed, me, i));
    CK(cudaMemcpy(s32, h.data(), 12000, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d32, out.data(), 12000, cudaMemcpyHostToDevice));
    // a copy from pageable memory may still be on its way to the GPU when cudaMemcpy returns, and
    // shmem_barrier_all does not wait for it: a late -1 would overwrite the left PE's iput
    CK(cudaDeviceSynchronize());
    shmem_barrier_all();
    strided_kernel<<<1, 32>>>(d32, s32, 1000, right);
    CK(cudaDeviceSynchronize());
    shmem_barrier_all();
    CK(cudaDeviceSynchronize());  // never block in cudaMemcpy while a kernel waits on the proxy (docs/gpu.md)
    CK(cudaMemcpy(out.data(), d32, 12000, cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int i = 0; i < 3000; ++i) {
      int32_t want = i % 3 == 0 ? static_cast<int32_t>(payload(seed, left, 2 * (i / 3))) : -1;
      wrong += out[i] != want;
    }
    EXPECT(wrong == 0, "iput strided: %d of 3000 elements wrong", wrong);
  }

  // 5. atomics: exact results, then contention from every thread of every PE
  progress("5. atomics: exact results, then contention from every thread");
  int64_t* a64 = static_cast<int64_t*>(shmem_calloc(1, 8));
  uint32_t* b32 = static_cast<uint32_t*>(shmem_calloc(1, 4));
  double* dd = static_cast<double*>(shmem_calloc(1, 8));
  shmem_barrier_all();
  amo_kernel<<<1, 1>>>(a64, b32, dd, right, bad);
  CK(cudaDeviceSynchronize());
  EXPECT(read_bad(bad) == 0, "atomic results");
  const int cblocks = 32, cthreads = 256;
  const size_t total = static_cast<size_t>(n) * cblocks * cthreads;
  unsigned long long* counter = static_cast<unsigned long long*>(shmem_calloc(1, 8));
  unsigned long long* bitmap = static_cast<unsigned long long*>(shmem_calloc((total + 63) / 64, 8));
  shmem_barrier_all();
  contention<<<cblocks, cthreads>>>(counter, bitmap, bad);
  CK(cudaDeviceSynchronize());
  shmem_barrier_all();
  EXPECT(read_bad(bad) == 0, "contention: duplicate tickets");
  if (me == 0) {
    unsigned long long c = 0;
    CK(cudaDeviceSynchronize());  // never block in cudaMemcpy while a kernel waits on the proxy (docs/gpu.md)
    CK(cudaMemcpy(&c, counter, 8, cudaMemcpyDeviceToHost));
    std::vector<unsigned long long> bm((total + 63) / 64);
    CK(cudaDeviceSynchronize());  // never block in cudaMemcpy while a kernel waits on the proxy (docs/gpu.md)
    CK(cudaMemcpy(bm.data(), bitmap, bm.size() * 8, cudaMemcpyDeviceToHost));
    size_t set = 0;
    for (auto w : bm) set += __builtin_popcountll(w);
    EXPECT(c == total && set == total, "contention: counter %llu, %zu distinct tickets, expected %zu", c, set, total);
  }

  // 6. put_signal ring (block scope) and 7. in-kernel barriers
  progress("6. put_signal ring (block scope) and 7. in-kernel barriers");
  uint64_t* ringbuf = static_cast<uint64_t*>(shmem_malloc(2 * 4096 * 8));
  uint64_t* sig = static_cast<uint64_t*>(shmem_calloc(1, 8));
  shmem_barrier_all();
  ring<<<1, 256>>>(ringbuf, src, 4096, sig, 200, seed, bad);
  CK(cudaDeviceSynchronize());
  EXPECT(read_bad(bad) == 0, "put_signal ring");
  long* counters = static_cast<long*>(shmem_calloc(1, sizeof(long)));
  shmem_barrier_all();
  barrier_loop<<<1, 1>>>(counters, 1000, bad);
  CK(cudaDeviceSynchronize());
  EXPECT(read_bad(bad) == 0, "in-kernel barrier_all counters");
  {
    uint64_t* so = static_cast<uint64_t*>(shmem_calloc(2, 8));
    shmem_barrier_all();
    signal_op_kernel<<<4, 32>>>(so, right);  // 128 threads each add 2
    CK(cudaDeviceSynchronize());
    shmem_barrier_all();
    uint64_t h[2];
    CK(cudaDeviceSynchronize());  // never block in cudaMemcpy while a kernel waits on the proxy (docs/gpu.md)
    CK(cudaMemcpy(h, so, 16, cudaMemcpyDeviceToHost));
    EXPECT(h[0] == 256 && h[1] == 9, "shmemx_signal_op: %llu, %llu", (unsigned long long)h[0], (unsigned long long)h[1]);
  }

  // 8. message-passing litmus: 32 slots x 32768 rounds = 1M messages per PE pair
  progress("8. message-passing litmus: 32 slots x 32768 rounds = 1M mess");
  // Through the proxy every p is a trigger (over tcp, a request on a socket: ~5 us each), and the
  // ordering comes from the FIFO, not from NVLink: 2048 rounds suffice there.
  uint32_t* ldata = static_cast<uint32_t*>(shmem_calloc(32 * 32, 4));
  int* proxied_right;
  CK(cudaMallocManaged(&proxied_right, sizeof *proxied_right));
  device_ptr_null<<<1, 1>>>(ldata, right, proxied_right);
  CK(cudaDeviceSynchronize());
  // Every PE must run the same count (a PE receives from its left what its left sends): with the
  // PEs split over nodes some rights are proxied and some not, so the split decides for all.
  const bool split = shmem_team_n_pes(SHMEM_TEAM_SHARED) < shmem_n_pes();
  const int slots = 32, iters = *proxied_right || split ? 2048 : 32768;
  uint64_t* lflags = static_cast<uint64_t*>(shmem_calloc(slots, 8));
  uint64_t* lacks = static_cast<uint64_t*>(shmem_calloc(slots, 8));
  shmem_barrier_all();
  {
    int it = iters;
    void* args[] = {&ldata, &lflags, &lacks, &it, &bad};
    int grid = 0;
    CK(static_cast<cudaError_t>(shmemx_collective_launch_query_gridsize((const void*)litmus, dim3(32), args, 0, &grid)));
    EXPECT(grid >= 2 * slots, "collective launch grid %d too small", grid);
    CK(static_cast<cudaError_t>(shmemx_collective_launch((const void*)litmus, dim3(2 * slots), dim3(32), args, 0, 0)));
    CK(cudaDeviceSynchronize());
    unsigned long long s = read_bad(bad);
    EXPECT(s == 0, "litmus: %llu stale reads in %d messages", s, slots * iters);
    if (me == 0) printf("litmus: %d messages per PE%s, %llu stale reads\n", slots * iters,
                        *proxied_right ? " (through the proxy)" : "", s);
  }

  // 9. host-side operations on the device heap
  progress("9. host-side operations on the device heap");
  {
    std::vector<uint64_t> h(4096), back(4096, 0);
    for (size_t i = 0; i < h.size(); ++i) h[i] = payload(seed ^ 0x55, me, i);
    poison<<<8, 256>>>(dst, 4096);
    CK(cudaDeviceSynchronize());
    shmem_barrier_all();
    shmem_putmem(dst, h.data(), 4096 * 8, right);
    shmem_uint64_p(dst + 4095, payload(seed ^ 0x55, me, 4095), right);
    shmem_barrier_all();
    CK(cudaDeviceSynchronize());  // never block in cudaMemcpy while a kernel waits on the proxy (docs/gpu.md)
    CK(cudaMemcpy(back.data(), dst, 4096 * 8, cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (size_t i = 0; i < back.size(); ++i) wrong += back[i] != payload(seed ^ 0x55, left, i);
    EXPECT(wrong == 0, "host putmem to device heap: %d words wrong", wrong);
    uint64_t g = shmem_uint64_g(dst + 17, right);
    EXPECT(g == payload(seed ^ 0x55, me, 17), "host g from device heap");
    std::fill(back.begin(), back.end(), 0);
    shmem_getmem(back.data(), src, 4096 * 8, left);
    wrong = 0;
    for (size_t i = 0; i < back.size(); ++i) wrong += back[i] != payload(seed, left, i);
    EXPECT(wrong == 0, "host getmem from device heap: %d words wrong", wrong);
  }

  // 9a. contexts on a GPU PE: each has its own stream; nbi puts on two contexts, quiet each, a
  progress("9a. contexts on a GPU PE: each has its own stream; nbi puts ");
  // put_signal and an atomic through a context, all data checked at the receiver.
  {
    shmem_ctx_t a = SHMEM_CTX_INVALID, b = SHMEM_CTX_INVALID;
    EXPECT(shmem_ctx_create(0, &a) == 0 && shmem_ctx_create(SHMEM_CTX_PRIVATE, &b) == 0, "shmem_ctx_create");
    std::vector<uint64_t> h(8192), back(8192, 0);
    for (size_t i = 0; i < h.size(); ++i) h[i] = payload(seed ^ 0x77, me, i);
    uint64_t* csig = static_cast<uint64_t*>(shmem_calloc(1, 8));
    int64_t* ccnt = static_cast<int64_t*>(shmem_calloc(1, 8));
    poison<<<8, 256>>>(dst, 8192);
    CK(cudaDeviceSynchronize());
    shmem_barrier_all();
    shmem_ctx_putmem_nbi(a, dst, h.data(), 4096 * 8, right);
    shmem_ctx_putmem_nbi(b, dst + 4096, h.data() + 4096, 4095 * 8, right);
    shmem_ctx_quiet(b);
    shmem_ctx_putmem_signal(b, dst + 8191, h.data() + 8191, 8, csig, 1, SHMEM_SIGNAL_SET, right);
    shmem_ctx_int64_atomic_add(a, ccnt, 5, right);
    shmem_ctx_quiet(a);
    shmem_barrier_all();
    CK(cudaDeviceSynchronize());  // never block in cudaMemcpy while a kernel waits on the proxy (docs/gpu.md)
    CK(cudaMemcpy(back.data(), dst, 8192 * 8, cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (size_t i = 0; i < back.size(); ++i) wrong += back[i] != payload(seed ^ 0x77, left, i);
    EXPECT(wrong == 0, "context puts to the device heap: %d words wrong", wrong);
    uint64_t sv = 0;
    int64_t cv = 0;
    CK(cudaDeviceSynchronize());  // never block in cudaMemcpy while a kernel waits on the proxy (docs/gpu.md)
    CK(cudaMemcpy(&sv, csig, 8, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&cv, ccnt, 8, cudaMemcpyDeviceToHost));
    EXPECT(sv == 1 && cv == 5, "context signal %llu (want 1), atomic add %lld (want 5)", (unsigned long long)sv,
           (long long)cv);
    shmem_ctx_destroy(a);
    shmem_ctx_destroy(b);
    shmem_barrier_all();
    shmem_free(ccnt);
    shmem_free(csig);
  }

  // 9b. host-side atomics on the device heap, signal ADD from the host, device signal_op
  progress("9b. host-side atomics on the device heap, signal ADD from th");
  {
    int64_t* hc = static_cast<int64_t*>(shmem_calloc(4, 8));
    float* hf = static_cast<float*>(shmem_calloc(1, 4));
    uint64_t* hsig = static_cast<uint64_t*>(shmem_calloc(1, 8));
    shmem_barrier_all();
    // every PE adds (me+1) to PE 0's counter from the host, 50 times, mixing fetch_add and add
    int64_t seen_max = 0;
    for (int i = 0; i < 50; ++i) {
      if (i & 1) shmem_int64_atomic_add(hc, me + 1, 0);
      else seen_max = std::max(seen_max, shmem_int64_atomic_fetch_add(hc, me + 1, 0));
    }
    shmem_int64_atomic_set(hc + 1, 5, right);
    int64_t old = shmem_int64_atomic_compare_swap(hc + 1, 5, 11, right);
    float fold = shmem_float_atomic_swap(hf, 1.5f, right);
    shmem_putmem_signal(dst, src, 64, hsig, 3, SHMEM_SIGNAL_ADD, right);
    shmem_putmem_signal(dst, src, 64, hsig, 4, SHMEM_SIGNAL_ADD, right);
    shmem_barrier_all();
    const int64_t want = 50LL * n * (n + 1) / 2;
    EXPECT(shmem_int64_atomic_fetch(hc, 0) == want, "host fetch_add on device heap: %lld, want %lld",
           (long long)shmem_int64_atomic_fetch(hc, 0), (long long)want);
    EXPECT(old == 5 && shmem_int64_atomic_fetch(hc + 1, me) == 11, "host compare_swap on device heap");
    EXPECT(fold == 0.0f && shmem_float_atomic_fetch(hf, me) == 1.5f, "host float swap on device heap");
    EXPECT(shmem_uint64_atomic_fetch(hsig, me) == 7, "host SHMEM_SIGNAL_ADD on device heap: %llu",
           (unsigned long long)shmem_uint64_atomic_fetch(hsig, me));
    (void)seen_max;
  }

  // 10. on-stream: put + signal, wait, barrier, all ordered on one stream
  progress("10. on-stream: put + signal, wait, barrier, all ordered on o");
  // On-stream RMA needs a mapped peer (docs/gpu.md): with the PEs split over nodes
  // (GSHMEM_EMULATE_NODES) some right neighbours are on another node, and the section, whose
  // barriers every PE must join, is left out on every PE.
  if (split || shmem_ptr(dst, right) == nullptr) {
    progress("10. left out: a right neighbour is on another node");
  } else {
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    uint64_t* ssig = static_cast<uint64_t*>(shmem_calloc(1, 8));
    poison<<<8, 256, 0, s>>>(dst, kWords);
    shmemx_barrier_all_on_stream(s);
    shmemx_putmem_signal_on_stream(dst, src, kWords * 8, ssig, 7, SHMEM_SIGNAL_SET, right, s);
    shmemx_signal_wait_until_on_stream(ssig, SHMEM_CMP_EQ, 7, s);
    verify<<<64, 256, 0, s>>>(dst, kWords, seed, left, bad);
    shmemx_barrier_all_on_stream(s);
    CK(cudaStreamSynchronize(s));
    EXPECT(read_bad(bad) == 0, "on-stream putmem_signal / wait / barrier");
    poison<<<8, 256, 0, s>>>(local, kWords);
    shmemx_getmem_on_stream(local, src, kWords * 8, left, s);
    verify<<<64, 256, 0, s>>>(local, kWords, seed, left, bad);
    CK(cudaStreamSynchronize(s));
    EXPECT(read_bad(bad) == 0, "on-stream getmem");
    // SIGNAL_ADD on a stream twice, then wait for the sum
    uint64_t* asig = static_cast<uint64_t*>(shmem_calloc(1, 8));
    shmemx_barrier_all_on_stream(s);
    shmemx_putmem_signal_on_stream(dst, src, 4096, asig, 5, SHMEM_SIGNAL_ADD, right, s);
    shmemx_putmem_signal_on_stream(dst, src, 4096, asig, 6, SHMEM_SIGNAL_ADD, right, s);
    shmemx_signal_wait_until_on_stream(asig, SHMEM_CMP_GE, 11, s);
    shmemx_barrier_all_on_stream(s);
    CK(cudaStreamSynchronize(s));
    EXPECT(shmem_uint64_atomic_fetch(asig, me) == 11, "on-stream SHMEM_SIGNAL_ADD");
    // a signal alone on a stream: set 40 on the right PE, then add 2 (no data)
    shmem_barrier_all();  // every PE has read its 11
    shmemx_signal_op_on_stream(asig, 40, SHMEM_SIGNAL_SET, right, s);
    shmemx_signal_op_on_stream(asig, 2, SHMEM_SIGNAL_ADD, right, s);
    shmemx_signal_wait_until_on_stream(asig, SHMEM_CMP_EQ, 42, s);
    shmemx_barrier_all_on_stream(s);
    CK(cudaStreamSynchronize(s));
    EXPECT(shmem_uint64_atomic_fetch(asig, me) == 42, "shmemx_signal_op_on_stream (SET then ADD)");
    CK(cudaStreamDestroy(s));
  }

  // 11. heap growth past the first reservation (the test runs with SHMEM_SYMMETRIC_SIZE=64M)
  progress("11. heap growth past the first reservation (the test runs wi");
  {
    const size_t before = shmemx_heap_size();
    const size_t big = before + (8u << 20);
    uint64_t* grown = static_cast<uint64_t*>(shmem_malloc(big));
    if (shmemx_heap_growable() && !getenv("GSHMEM_DEVICE_HEAP_ALIGN")) {
      // The VMM window puts every PE's segment on a 512 MiB boundary (GSHMEM_DEVICE_HEAP_ALIGN,
      // docs/gpu.md): an object lies 16 MiB (the control block) + its heap offset past a 512 MiB
      // boundary, and a peer's copy a multiple of 512 MiB away (also when
      // GSHMEM_DEVICE_HEAP_RESERVE is not a multiple of it: the gpu-api-reserve100m test).
      const unsigned long long a512 = 512ull << 20, in = reinterpret_cast<uintptr_t>(src) % a512;
      EXPECT(in >= (16ull << 20) && in < (16ull << 20) + before, "my heap object %p is %#llx past a 512 MiB boundary",
             static_cast<void*>(src), in);
      for (int pe = 0; pe < n; ++pe) {
        // A PE on another node (GSHMEM_EMULATE_NODES) is not mapped: shmem_ptr gives NULL there.
        if (shmem_team_translate_pe(SHMEM_TEAM_WORLD, pe, SHMEM_TEAM_SHARED) < 0) {
          EXPECT(shmem_ptr(src, pe) == nullptr, "shmem_ptr to PE %d, on another node, is not NULL", pe);
          continue;
        }
        const uintptr_t d = reinterpret_cast<uintptr_t>(shmem_ptr(src, pe)) - reinterpret_cast<uintptr_t>(src);
        EXPECT(shmem_ptr(src, pe) != nullptr && d % a512 == 0, "PE %d's heap is %#llx bytes from mine", pe,
               static_cast<unsigned long long>(d));
      }
    }
    if (shmemx_heap_growable()) {
      EXPECT(grown != nullptr && shmemx_heap_size() > before, "heap growth: malloc(%zu) with heap %zu -> %p, heap %zu",
             big, before, static_cast<void*>(grown), shmemx_heap_size());
    } else {  // fixed-size heap (CUDA IPC fallback): NULL on every PE, and the heap still works
      EXPECT(grown == nullptr && shmemx_heap_size() == before, "fixed heap: malloc(%zu) past %zu must return NULL",
             big, before);
    }
    if (grown) {
      const size_t words = big / 8;
      uint64_t* tail = grown + words - kWords;  // the part past the original heap
      poison<<<64, 256>>>(tail, kWords);
      CK(cudaDeviceSynchronize());
      shmem_barrier_all();
      put_kernel<<<8, 128>>>(tail, src, kWords, right, 2);
      CK(cudaDeviceSynchronize());
      shmem_barrier_all();
      verify<<<64, 256>>>(tail, kWords, seed, left, bad);
      EXPECT(read_bad(bad) == 0, "put into the grown heap");
      shmem_free(grown);
    }
  }

  shmem_barrier_all();
  int total_fail = 0;
  static int fails_on;  // symmetric global
  shmem_int_atomic_add(&fails_on, g_failures, 0);
  shmem_barrier_all();
  total_fail = shmem_int_g(&fails_on, 0);
  if (me == 0) printf("%s gpu_api: %d PEs, %d failures\n", total_fail ? "FAIL" : "PASS", n, total_fail);
  shmem_finalize();
  return total_fail ? 1 : 0;
}
