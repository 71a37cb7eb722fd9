// The device API as a user builds it: one .cu file, the installed headers alone, plain nvcc (no
// -rdc, no device link). Every area of the API runs once with fresh random payloads and checked
// results: RMA at thread, warp and block scope (blocking, nbi, p/g, strided), put-with-signal and
// signal waits, atomics, in-kernel collectives under a collective launch, and stream-ordered host
// calls. Run with 2+ PEs: oshrun -np 2 ./device_api. Exits 77 without a GPU.
#include <shmem.h>
#include <shmemx.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>

#define CK(x)                                                                                   \
  do {                                                                                          \
    cudaError_t e_ = (x);                                                                       \
    if (e_ != cudaSuccess) {                                                                    \
      fprintf(stderr, "FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));  \
      shmem_global_exit(1);                                                                     \
    }                                                                                           \
  } while (0)

namespace {
constexpr int kWords = 4096;  // per RMA buffer
constexpr int kColl = 64;     // elements per PE in the collectives

__host__ __device__ uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  return x ^ (x >> 33);
}
__host__ __device__ uint64_t val(uint64_t seed, int pe, int i) { return mix(seed ^ (uint64_t(pe) << 40) ^ uint64_t(i)); }

struct Bufs {
  uint64_t *src, *dst, *sig;  // dst: 4 regions of kWords (thread, warp, block, nbi)
  uint64_t *got;              // 3 regions (get at thread, warp, block)
  int *pg;                    // p/g and strided
  long long *counter;         // atomics
  unsigned *bits;
  int *red_src, *red_dst, *bc, *fc, *a2a_src, *a2a_dst;
};

__global__ void fill(uint64_t *p, int n, uint64_t seed, int pe) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) p[i] = val(seed, pe, i);
}

// RMA to the right neighbour at each scope, then put-with-signal; the neighbour waits for it.
__global__ void rma(Bufs b, int right) {
  const int warp = threadIdx.x / 32;
  if (threadIdx.x == 0) shmem_uint64_put(b.dst, b.src, kWords, right);                      // thread
  if (warp == 1) shmemx_putmem_warp(b.dst + kWords, b.src, kWords * 8, right);               // warp
  shmemx_uint64_put_block(b.dst + 2 * kWords, b.src, kWords, right);                         // block
  shmemx_putmem_nbi_block(b.dst + 3 * kWords, b.src, kWords * 8, right);                     // nbi
  if (threadIdx.x < 32) shmem_int_p(b.pg + threadIdx.x, int(threadIdx.x) * 7 + 1, right);    // p
  if (threadIdx.x == 0) shmem_int_iput(b.pg + 64, b.pg + 32, 2, 1, 16, right);               // strided
  __syncthreads();
  if (threadIdx.x == 0) shmem_quiet();
  __syncthreads();
  // data is complete at the target: now signal it (put_signal orders its own data before the signal)
  shmemx_putmem_signal_block(b.dst + 4 * kWords, b.src, 256 * 8, b.sig, 1, SHMEM_SIGNAL_SET, right);
  if (threadIdx.x == 0) shmemx_signal_op(b.sig + 1, 5, SHMEM_SIGNAL_ADD, right);
}

// Waits for the left neighbour's signals, checks every region, and reads the left's source back
// with get at each scope and g.
__global__ void check_rma(Bufs b, uint64_t seed, int left, unsigned long long *bad) {
  if (threadIdx.x == 0) {
    shmem_signal_wait_until(b.sig, SHMEM_CMP_EQ, 1);
    shmem_uint64_wait_until(b.sig + 1, SHMEM_CMP_GE, 5);
    if (shmem_signal_fetch(b.sig + 1) != 5) atomicAdd(bad, 1ull);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < 4 * kWords + 256; i += blockDim.x)
    if (b.dst[i] != val(seed, left, i % kWords)) atomicAdd(bad, 1ull);
  if (threadIdx.x < 32 && b.pg[threadIdx.x] != int(threadIdx.x) * 7 + 1) atomicAdd(bad, 1ull);
  if (threadIdx.x < 16 && b.pg[64 + 2 * threadIdx.x] != (32 + int(threadIdx.x)) * 3) atomicAdd(bad, 1ull);
  if (threadIdx.x == 0) shmem_getmem(b.got, b.src, kWords * 8, left);
  if (threadIdx.x / 32 == 1) shmemx_getmem_warp(b.got + kWords, b.src, kWords * 8, left);
  shmemx_uint64_get_block(b.got + 2 * kWords, b.src, kWords, left);
  __syncthreads();
  for (int i = threadIdx.x; i < 3 * kWords; i += blockDim.x)
    if (b.got[i] != val(seed, left, i % kWords)) atomicAdd(bad, 1ull);
  if (threadIdx.x < 32 && shmem_uint64_g(b.src + threadIdx.x * 3, left) != val(seed, left, threadIdx.x * 3))
    atomicAdd(bad, 1ull);
}

// Every thread of every PE adds to one counter on PE 0 and sets a bit of this PE there.
__global__ void amo(Bufs b, int me) {
  shmem_longlong_atomic_add(b.counter, 1, 0);
  if (threadIdx.x == 0) {
    shmem_uint_atomic_or(b.bits, 1u << me, 0);
    long long old = shmem_longlong_atomic_fetch_add(b.counter + 1, 10, 0);
    (void)old;
  }
}

// In-kernel collectives over the world team, one block per PE, started by collective launch.
__global__ void coll(Bufs b, uint64_t seed, int me) {
  for (int i = threadIdx.x; i < kColl; i += blockDim.x) {
    b.red_src[i] = int(val(seed, me, i) % 1000);
    b.a2a_src[i] = me * 1000 + i;
  }
  __syncthreads();
  shmemx_barrier_all_block();
  if (threadIdx.x == 0) {  // the 1.5 generic names in device code (thread scope)
    shmem_sync(SHMEM_TEAM_WORLD);
    shmem_sum_reduce(SHMEM_TEAM_WORLD, b.red_dst, b.red_src, kColl);
  }
  __syncthreads();
  shmemx_int_broadcast_block(SHMEM_TEAM_WORLD, b.bc, b.a2a_src, kColl, 1);
  shmemx_int_fcollect_block(SHMEM_TEAM_WORLD, b.fc, b.red_src, kColl);
  shmemx_int_alltoall_block(SHMEM_TEAM_WORLD, b.a2a_dst, b.a2a_src, kColl / shmem_n_pes());
  if (threadIdx.x == 0) shmem_barrier_all();
}

__global__ void check_coll(Bufs b, uint64_t seed, int npes, unsigned long long *bad) {
  const int per = kColl / npes;
  for (int i = threadIdx.x; i < kColl; i += blockDim.x) {
    int sum = 0;
    for (int p = 0; p < npes; ++p) sum += int(val(seed, p, i) % 1000);
    if (b.red_dst[i] != sum) atomicAdd(bad, 1ull);
    if (b.bc[i] != 1000 + i) atomicAdd(bad, 1ull);  // root: team PE 1
    for (int p = 0; p < npes; ++p)
      if (b.fc[p * kColl + i] != int(val(seed, p, i) % 1000)) atomicAdd(bad, 1ull);
    if (i < per * npes && b.a2a_dst[i] != (i / per) * 1000 + shmem_my_pe() * per + i % per) atomicAdd(bad, 1ull);
  }
}

__global__ void count_diff(const int *a, int expect, int n, unsigned long long *bad) {
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    if (a[i] != expect) atomicAdd(bad, 1ull);
}

unsigned long long take(unsigned long long *d) {
  unsigned long long h = 0;
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
  CK(cudaMemset(d, 0, sizeof h));
  return h;
}
}  // namespace

static uint64_t g_seed;  // symmetric (a global): PE 0 picks it, the others read it with shmem_g

int main() {
  int ngpus = 0;
  if (cudaGetDeviceCount(&ngpus) != cudaSuccess || ngpus == 0) {
    printf("device_api: no CUDA device; skipping\n");
    return 77;
  }
  shmem_init();
  const int me = shmem_my_pe(), n = shmem_n_pes(), right = (me + 1) % n, left = (me + n - 1) % n;
  if (n < 2 || kColl % n) {
    if (me == 0) printf("device_api: needs 2, 4 or 8 PEs (got %d); skipping\n", n);
    shmem_finalize();
    return 77;
  }
  if (me == 0) g_seed = mix(uint64_t(time(nullptr)) ^ uint64_t(clock()));
  shmem_barrier_all();
  const uint64_t seed = shmem_uint64_g(&g_seed, 0);

  Bufs b;
  b.src = static_cast<uint64_t *>(shmem_malloc(kWords * 8));
  b.dst = static_cast<uint64_t *>(shmem_malloc((4 * kWords + 256) * 8));
  b.got = static_cast<uint64_t *>(shmem_malloc(3 * kWords * 8));
  b.sig = static_cast<uint64_t *>(shmem_calloc(2, 8));
  b.pg = static_cast<int *>(shmem_calloc(128, sizeof(int)));
  b.counter = static_cast<long long *>(shmem_calloc(2, sizeof(long long)));
  b.bits = static_cast<unsigned *>(shmem_calloc(1, sizeof(unsigned)));
  b.red_src = static_cast<int *>(shmem_malloc(kColl * sizeof(int)));
  b.red_dst = static_cast<int *>(shmem_malloc(kColl * sizeof(int)));
  b.bc = static_cast<int *>(shmem_malloc(kColl * sizeof(int)));
  b.fc = static_cast<int *>(shmem_malloc(kColl * n * sizeof(int)));
  b.a2a_src = static_cast<int *>(shmem_malloc(kColl * sizeof(int)));
  b.a2a_dst = static_cast<int *>(shmem_malloc(kColl * sizeof(int)));
  unsigned long long *bad;
  CK(cudaMalloc(&bad, sizeof *bad));
  CK(cudaMemset(bad, 0, sizeof *bad));
  CK(cudaMemset(b.dst, 0xA5, (4 * kWords + 256) * 8));  // poisoned destinations
  CK(cudaMemset(b.got, 0xA5, 3 * kWords * 8));
  int strided_src[32];
  for (int i = 0; i < 32; ++i) strided_src[i] = (32 + i) * 3;  // b.pg[32..63], the iput source
  CK(cudaMemcpy(b.pg + 32, strided_src, sizeof strided_src, cudaMemcpyHostToDevice));
  fill<<<8, 256>>>(b.src, kWords, seed, me);
  CK(cudaDeviceSynchronize());
  shmem_barrier_all();

  int failed = 0;
  auto report = [&](const char *what, unsigned long long nbad) {
    if (nbad) fprintf(stderr, "FAIL pe %d: %s: %llu wrong\n", me, what, nbad);
    failed += nbad != 0;
  };

  // 1. RMA and signals
  rma<<<1, 256>>>(b, right);
  check_rma<<<1, 256>>>(b, seed, left, bad);
  report("rma, signals, get, p/g, iput", take(bad));
  shmem_barrier_all();

  // 2. atomics
  amo<<<4, 128>>>(b, me);
  CK(cudaDeviceSynchronize());
  shmem_barrier_all();
  if (me == 0) {
    long long c[2];
    unsigned bits;
    CK(cudaMemcpy(c, b.counter, sizeof c, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&bits, b.bits, sizeof bits, cudaMemcpyDeviceToHost));
    report("atomic add", c[0] != 512LL * n);
    report("atomic fetch_add", c[1] != 40LL * n);
    report("atomic or", bits != (1u << n) - 1);
  }

  // 3. in-kernel collectives under a collective launch
  {
    int grid = 0;
    void *args[] = {&b, const_cast<uint64_t *>(&seed), const_cast<int *>(&me)};
    CK(static_cast<cudaError_t>(shmemx_collective_launch_query_gridsize((const void *)coll, dim3(256), args, 0, &grid)));
    report("collective launch grid size", grid < 1);
    CK(static_cast<cudaError_t>(shmemx_collective_launch((const void *)coll, dim3(1), dim3(256), args, 0, 0)));
    CK(cudaDeviceSynchronize());
    check_coll<<<1, 256>>>(b, seed, n, bad);
    report("in-kernel barrier, sync, sum_reduce (generic), broadcast, fcollect, alltoall", take(bad));
  }
  shmem_barrier_all();

  // 4. stream-ordered host calls
  {
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CK(cudaMemsetAsync(b.dst, 0xA5, 2 * kWords * 8, s));
    CK(cudaMemsetAsync(b.sig, 0, 16, s));
    shmemx_barrier_all_on_stream(s);
    shmemx_putmem_signal_on_stream(b.dst, b.src, kWords * 8, b.sig, 7, SHMEM_SIGNAL_SET, right, s);
    shmemx_signal_wait_until_on_stream(b.sig, SHMEM_CMP_EQ, 7, s);
    shmemx_putmem_on_stream(b.dst + kWords, b.src, kWords * 8, right, s);
    shmemx_quiet_on_stream(s);
    shmemx_barrier_all_on_stream(s);
    int ones[kColl];
    for (int i = 0; i < kColl; ++i) ones[i] = me + 1;
    CK(cudaMemcpyAsync(b.red_src, ones, sizeof ones, cudaMemcpyHostToDevice, s));
    shmemx_barrier_all_on_stream(s);
    if (shmemx_int_sum_reduce_on_stream(SHMEM_TEAM_WORLD, b.red_dst, b.red_src, kColl, s) != 0)
      report("sum_reduce_on_stream returned nonzero", 1);
    CK(cudaStreamSynchronize(s));
    count_diff<<<1, 64>>>(b.red_dst, n * (n + 1) / 2, kColl, bad);
    report("sum_reduce_on_stream", take(bad));
    uint64_t got[2 * 64];
    CK(cudaMemcpy(got, b.dst, 64 * 8, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(got + 64, b.dst + kWords, 64 * 8, cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int i = 0; i < 128; ++i) wrong += got[i] != val(seed, left, i % 64);
    report("putmem_signal_on_stream / putmem_on_stream", wrong);
    CK(cudaStreamDestroy(s));
  }

  shmem_barrier_all();
  printf("device_api: pe %d of %d (GPU %d): %s\n", me, n, shmemx_device(), failed ? "FAILED" : "ok");
  shmem_finalize();
  return failed ? 1 : 0;
}
