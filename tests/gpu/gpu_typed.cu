// Every typed device call, for every type of the spec's tables, in every scope: put/get at thread,
// warp and block scope, p/g, nbi; every AMO; every wait_until/test form. Fresh random payloads,
// poisoned destinations. Run: oshrun -np N gpu_typed
#include "gpu_util.cuh"

#include <cstring>
#include <type_traits>
#include <vector>

namespace {
constexpr size_t kN = 4096;  // elements per type
constexpr int kP2P = 16;

template <typename T>
__host__ __device__ T val(uint64_t seed, int pe, size_t i) {
  uint64_t x = payload(seed, pe, i);
  if constexpr (sizeof(T) < 8) x &= (uint64_t(1) << (8 * sizeof(T) - 1)) - 1;  // positive, exact in float
  if constexpr (std::is_floating_point_v<T>) return static_cast<T>(x & 0xFFFFFF);
  else return static_cast<T>(x);
}
template <typename T>
__global__ void fill_t(T* p, uint64_t seed, int pe, size_t n) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) p[i] = val<T>(seed, pe, i);
}
template <typename T>
__global__ void poison_t(T* p, size_t n) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    for (size_t k = 0; k < sizeof(T); ++k) reinterpret_cast<unsigned char*>(p + i)[k] = 0xA5;
}
template <typename T>
__global__ void check_t(const T* p, uint64_t seed, int pe, size_t n, unsigned long long* bad) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    // compare bytes, so a poisoned float (a NaN) cannot compare equal by accident or unequal to itself
    T want = val<T>(seed, pe, i);
    const unsigned char *a = reinterpret_cast<const unsigned char*>(p + i), *b = reinterpret_cast<const unsigned char*>(&want);
    bool same = true;
    for (size_t k = 0; k < sizeof(T); ++k) same &= a[k] == b[k];
    if (!same) atomicAdd(bad, 1ull);
  }
}

// Quarter q of the array moves in one way: 0 thread put, 1 warp put, 2 block put, 3 p/nbi.
#define RMA_KERNELS(T, N)                                                                           \
  __global__ void put_##N(T* dst, const T* src, int pe) {                                           \
    const size_t q = kN / 4;                                                                        \
    if (blockIdx.x == 0 && threadIdx.x == 0) shmem_##N##_put(dst, src, q, pe);                      \
    if (blockIdx.x == 1 && threadIdx.x < 32) shmemx_##N##_put_warp(dst + q, src + q, q, pe);        \
    if (blockIdx.x == 2) shmemx_##N##_put_block(dst + 2 * q, src + 2 * q, q, pe);                   \
    if (blockIdx.x == 3) {                                                                          \
      for (size_t i = 3 * q + threadIdx.x; i < 3 * q + q / 2; i += blockDim.x) shmem_##N##_p(dst + i, src[i], pe); \
      if (threadIdx.x == 0) shmem_##N##_put_nbi(dst + 3 * q + q / 2, src + 3 * q + q / 2, q - q / 2, pe); \
      if (threadIdx.x == 0) shmem_quiet();                                                          \
    }                                                                                               \
  }                                                                                                 \
  __global__ void get_##N(T* dst, const T* src, int pe) {                                           \
    const size_t q = kN / 4;                                                                        \
    if (blockIdx.x == 0 && threadIdx.x == 0) shmem_##N##_get(dst, src, q, pe);                      \
    if (blockIdx.x == 1 && threadIdx.x < 32) shmemx_##N##_get_warp(dst + q, src + q, q, pe);        \
    if (blockIdx.x == 2) shmemx_##N##_get_nbi_block(dst + 2 * q, src + 2 * q, q, pe);               \
    if (blockIdx.x == 3)                                                                            \
      for (size_t i = 3 * q + threadIdx.x; i < kN; i += blockDim.x) dst[i] = shmem_##N##_g(src + i, pe); \
  }
GSHMEM_RMA_TYPES_DEVICE(RMA_KERNELS)

template <typename T>
bool rma_round(const char* name, void (*put)(T*, const T*, int), void (*get)(T*, const T*, int), uint64_t seed,
               unsigned long long* bad) {
  const int me = shmem_my_pe(), n = shmem_n_pes(), right = (me + 1) % n, left = (me + n - 1) % n;
  progress(name);
  T* src = static_cast<T*>(shmem_malloc(kN * sizeof(T)));
  T* dst = static_cast<T*>(shmem_malloc(kN * sizeof(T)));
  T* local;
  CK(cudaMalloc(&local, kN * sizeof(T)));
  fill_t<T><<<16, 256>>>(src, seed, me, kN);
  poison_t<T><<<16, 256>>>(dst, kN);
  poison_t<T><<<16, 256>>>(local, kN);
  CK(cudaDeviceSynchronize());
  shmem_barrier_all();
  put<<<4, 128>>>(dst, src, right);
  CK(cudaDeviceSynchronize());
  progress("  put done");
  shmem_barrier_all();
  check_t<T><<<16, 256>>>(dst, seed, left, kN, bad);
  get<<<4, 128>>>(local, src, left);
  check_t<T><<<16, 256>>>(local, seed, left, kN, bad);
  CK(cudaDeviceSynchronize());
  progress("  get done");
  unsigned long long b = 0;
  CK(cudaMemcpy(&b, bad, 8, cudaMemcpyDeviceToHost));
  CK(cudaMemset(bad, 0, 8));
  EXPECT(b == 0, "%s: put/get/p/g in all scopes: %llu of %zu elements wrong", name, b, 2 * kN);
  shmem_barrier_all();
  CK(cudaFree(local));
  shmem_free(dst);
  shmem_free(src);
  return b == 0;
}

// AMOs: one thread runs a fixed script against the right PE's object and checks every result.
#define CHK(c) if (!(c)) atomicAdd(bad, 1ull)
#define AMO_STD_KERNEL(T, N)                                                                        \
  __global__ void amo_##N(T* x, int pe, unsigned long long* bad) {                                  \
    shmem_##N##_atomic_set(x, (T)10, pe);                                                           \
    CHK(shmem_##N##_atomic_fetch(x, pe) == (T)10);                                                  \
    CHK(shmem_##N##_atomic_fetch_inc(x, pe) == (T)10);                                              \
    shmem_##N##_atomic_inc(x, pe);                                                                  \
    CHK(shmem_##N##_atomic_fetch_add(x, (T)5, pe) == (T)12);                                        \
    shmem_##N##_atomic_add(x, (T)3, pe);                                                            \
    CHK(shmem_##N##_atomic_compare_swap(x, (T)20, (T)30, pe) == (T)20);                             \
    CHK(shmem_##N##_atomic_compare_swap(x, (T)20, (T)40, pe) == (T)30);                             \
    CHK(shmem_##N##_atomic_swap(x, (T)7, pe) == (T)30);                                             \
    T f = 0;                                                                                        \
    shmem_##N##_atomic_fetch_nbi(&f, x, pe);                                                        \
    shmem_quiet();                                                                                  \
    CHK(f == (T)7);                                                                                 \
    shmem_##N##_atomic_fetch_add_nbi(&f, x, (T)1, pe);                                              \
    shmem_quiet();                                                                                  \
    CHK(f == (T)7);                                                                                 \
    shmem_##N##_atomic_fetch_inc_nbi(&f, x, pe);                                                    \
    shmem_quiet();                                                                                  \
    CHK(f == (T)8);                                                                                 \
    shmem_##N##_atomic_compare_swap_nbi(&f, x, (T)9, (T)1, pe);                                     \
    shmem_quiet();                                                                                  \
    CHK(f == (T)9);                                                                                 \
    shmem_##N##_atomic_swap_nbi(&f, x, (T)2, pe);                                                   \
    shmem_quiet();                                                                                  \
    CHK(f == (T)1 && shmem_##N##_atomic_fetch(x, pe) == (T)2);                                      \
  }
GSHMEM_AMO_STD_TYPES(AMO_STD_KERNEL)
#define AMO_FP_KERNEL(T, N)                                                                         \
  __global__ void amo_##N(T* x, int pe, unsigned long long* bad) {                                  \
    shmem_##N##_atomic_set(x, (T)1.5, pe);                                                          \
    CHK(shmem_##N##_atomic_fetch(x, pe) == (T)1.5);                                                 \
    CHK(shmem_##N##_atomic_swap(x, (T)-2.25, pe) == (T)1.5);                                        \
    T f = 0;                                                                                        \
    shmem_##N##_atomic_swap_nbi(&f, x, (T)4, pe);                                                   \
    shmem_quiet();                                                                                  \
    CHK(f == (T)-2.25 && shmem_##N##_atomic_fetch(x, pe) == (T)4);                                  \
  }
AMO_FP_KERNEL(float, float)
AMO_FP_KERNEL(double, double)
#define AMO_BIT_KERNEL(T, N)                                                                        \
  __global__ void bit_##N(T* x, int pe, unsigned long long* bad) {                                  \
    shmem_##N##_atomic_set(x, (T)0x0F0F, pe);                                                       \
    CHK(shmem_##N##_atomic_fetch_and(x, (T)0x00FF, pe) == (T)0x0F0F);                               \
    shmem_##N##_atomic_or(x, (T)0x1000, pe);                                                        \
    CHK(shmem_##N##_atomic_fetch_xor(x, (T)0x1001, pe) == (T)0x100F);                               \
    shmem_##N##_atomic_and(x, (T)0xFFFE, pe);                                                       \
    CHK(shmem_##N##_atomic_fetch_or(x, (T)0x0100, pe) == (T)0x000E);                                \
    shmem_##N##_atomic_xor(x, (T)0x0001, pe);                                                       \
    T f = 0;                                                                                        \
    shmem_##N##_atomic_fetch_and_nbi(&f, x, (T)0xFFFF, pe);                                         \
    shmem_quiet();                                                                                  \
    CHK(f == (T)0x010F);                                                                            \
    shmem_##N##_atomic_fetch_or_nbi(&f, x, (T)0, pe);                                               \
    shmem_##N##_atomic_fetch_xor_nbi(&f, x, (T)0x010F, pe);                                         \
    shmem_quiet();                                                                                  \
    CHK(shmem_##N##_atomic_fetch(x, pe) == (T)0);                                                   \
  }
GSHMEM_AMO_BIT_TYPES(AMO_BIT_KERNEL)

// p2p: block 0 puts kP2P ivars on the right PE (value i+1; the last after a fence) after the left did
// the same here;
// block 1 exercises every wait/test form on this PE's ivars.
#define P2P_KERNEL(T, N)                                                                            \
  __global__ void p2p_##N(T* iv, int right, unsigned long long* bad) {                              \
    if (blockIdx.x == 0) {                                                                          \
      if (threadIdx.x == 0)                                                                         \
        for (int i = 0; i < kP2P; ++i) {  /* p (short has no atomics); the last one after a fence */ \
          if (i == kP2P - 1) shmem_fence();                                                         \
          shmem_##N##_p(iv + i, (T)(i + 1), right);                                                 \
        }                                                                                           \
      return;                                                                                       \
    }                                                                                               \
    if (threadIdx.x) return;                                                                        \
    shmem_##N##_wait_until(iv + kP2P - 1, SHMEM_CMP_EQ, (T)kP2P);                                   \
    int st[kP2P] = {0};                                                                             \
    T want[kP2P];                                                                                   \
    size_t idx[kP2P];                                                                               \
    for (int i = 0; i < kP2P; ++i) want[i] = (T)(i + 1);                                            \
    shmem_##N##_wait_until_all(iv, kP2P, st, SHMEM_CMP_GE, (T)1);                                   \
    shmem_##N##_wait_until_all_vector(iv, kP2P, st, SHMEM_CMP_EQ, want);                            \
    st[0] = 1;                                                                                      \
    CHK(shmem_##N##_wait_until_any(iv, kP2P, st, SHMEM_CMP_GT, (T)5) >= 5);                         \
    { /* any satisfied index but the excluded 0 (not necessarily the lowest) */                     \
      const size_t r = shmem_##N##_wait_until_any_vector(iv, kP2P, st, SHMEM_CMP_EQ, want);         \
      CHK(r >= 1 && r < kP2P);                                                                      \
    }                                                                                               \
    CHK(shmem_##N##_wait_until_some(iv, kP2P, idx, st, SHMEM_CMP_LE, (T)3) == 2 && idx[0] == 1 && idx[1] == 2); \
    CHK(shmem_##N##_wait_until_some_vector(iv, kP2P, idx, st, SHMEM_CMP_EQ, want) == kP2P - 1);     \
    CHK(shmem_##N##_test(iv + 3, SHMEM_CMP_EQ, (T)4) == 1 && shmem_##N##_test(iv + 3, SHMEM_CMP_NE, (T)4) == 0); \
    CHK(shmem_##N##_test_all(iv, kP2P, st, SHMEM_CMP_LT, (T)(kP2P + 1)) == 1);                      \
    CHK(shmem_##N##_test_any(iv, kP2P, st, SHMEM_CMP_GT, (T)(kP2P + 1)) == SIZE_MAX);               \
    CHK(shmem_##N##_test_some(iv, kP2P, idx, st, SHMEM_CMP_GE, (T)(kP2P - 1)) == 2);                \
    CHK(shmem_##N##_test_all_vector(iv, kP2P, st, SHMEM_CMP_EQ, want) == 1);                        \
    CHK(shmem_##N##_test_any_vector(iv, kP2P, st, SHMEM_CMP_NE, want) == SIZE_MAX);                 \
    CHK(shmem_##N##_test_some_vector(iv, kP2P, idx, st, SHMEM_CMP_EQ, want) == kP2P - 1);           \
    unsigned seen = 0; /* fairness: with status NULL every satisfied index comes back eventually */  \
    for (int k = 0; k < 100000 && seen != (1u << kP2P) - 1; ++k)                                    \
      seen |= 1u << shmem_##N##_test_any(iv, kP2P, nullptr, SHMEM_CMP_GE, (T)1);                    \
    CHK(seen == (1u << kP2P) - 1);                                                                  \
  }
GSHMEM_P2P_TYPES(P2P_KERNEL)

}  // namespace

int main() {
  skip_without_gpu();
  shmem_init();
  const int me = shmem_my_pe(), n = shmem_n_pes(), right = (me + 1) % n;
  skip_unless_gpu_per_pe();
  require_device_heap();
  const uint64_t seed = shared_seed();
  unsigned long long* bad;
  CK(cudaMalloc(&bad, 8));
  CK(cudaMemset(bad, 0, 8));
  int types = 0;
#define RUN_RMA(T, N) types += rma_round<T>(#N, put_##N, get_##N, seed, bad);
  GSHMEM_RMA_TYPES_DEVICE(RUN_RMA)

  void* obj = shmem_calloc(1, 8);
  void* iv = shmem_calloc(kP2P, 8);
  auto finish = [&](const char* what) {
    CK(cudaDeviceSynchronize());
    progress(what);
    unsigned long long b = 0;
    CK(cudaMemcpy(&b, bad, 8, cudaMemcpyDeviceToHost));
    CK(cudaMemset(bad, 0, 8));
    EXPECT(b == 0, "%s: %llu wrong results", what, b);
    shmem_barrier_all();
  };
#define RUN_AMO(T, N)                                         \
  shmem_barrier_all();                                        \
  amo_##N<<<1, 1>>>(static_cast<T*>(obj), right, bad);        \
  finish("atomics " #N);
  GSHMEM_AMO_STD_TYPES(RUN_AMO)
  RUN_AMO(float, float)
  RUN_AMO(double, double)
#define RUN_BIT(T, N)                                         \
  shmem_barrier_all();                                        \
  bit_##N<<<1, 1>>>(static_cast<T*>(obj), right, bad);        \
  finish("bitwise atomics " #N);
  GSHMEM_AMO_BIT_TYPES(RUN_BIT)
#define RUN_P2P(T, N)                                         \
  CK(cudaMemset(iv, 0, kP2P * 8));                            \
  shmem_barrier_all();                                        \
  p2p_##N<<<2, 32>>>(static_cast<T*>(iv), right, bad);        \
  finish("wait/test " #N);
  GSHMEM_P2P_TYPES(RUN_P2P)

  static int fails_on;
  shmem_int_atomic_add(&fails_on, g_failures, 0);
  shmem_barrier_all();
  const int total = shmem_int_g(&fails_on, 0);
  if (me == 0) printf("%s gpu_typed: %d PEs, %d RMA types, %d failures\n", total ? "FAIL" : "PASS", n, types, total);
  shmem_finalize();
  return total ? 1 : 0;
}
