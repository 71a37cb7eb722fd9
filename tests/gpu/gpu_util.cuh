// Helpers for the GPU suites: skip without a GPU, checked CUDA calls, a hash-based payload every
// PE can recompute for any (seed, pe, index), and failure reporting that ends the job.
#pragma once
#include <shmem.h>
#include <shmemx.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>

#define CK(x)                                                                                      \
  do {                                                                                             \
    cudaError_t e_ = (x);                                                                          \
    if (e_ != cudaSuccess) {                                                                       \
      fprintf(stderr, "FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));     \
      shmem_global_exit(1);                                                                        \
    }                                                                                              \
  } while (0)

__host__ __device__ inline uint64_t mix64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}
__host__ __device__ inline uint64_t payload(uint64_t seed, int pe, uint64_t i) {
  return mix64(seed ^ (static_cast<uint64_t>(pe) << 48) ^ (i * 0x9E3779B97F4A7C15ULL));
}

// Adds to *bad the number of words of p[0, n) that differ from the payload of (seed, pe). (Each
// GPU suite is one translation unit, so the header may define a kernel.)
__global__ void verify(const uint64_t* p, size_t n, uint64_t seed, int pe, unsigned long long* bad) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    if (p[i] != payload(seed, pe, i)) atomicAdd(bad, 1ull);
}

inline void skip_without_gpu() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    printf("no CUDA device; skipping\n");
    exit(77);
  }
}

// After shmem_init: ends the program as skipped (77) unless there are at least min_pes PEs and
// this node has a GPU for each of its PEs (kernels of PEs sharing a GPU only time-slice, so PEs
// spinning on each other would crawl).
inline void skip_unless_gpu_per_pe(int min_pes = 1) {
  int ngpus = 0;
  CK(cudaGetDeviceCount(&ngpus));
  const char* share = getenv("GSHMEM_TEST_SHARED_GPU");  // 1: run even when PEs share GPUs (slow)
  const bool allow_shared = share && *share == '1';
  // Emulated nodes (GSHMEM_EMULATE_NODES) split this machine's PEs: count the machine's.
  const char* emu = getenv("GSHMEM_EMULATE_NODES");
  const int on_machine = shmemx_local_npes() * (emu && atoi(emu) > 1 ? atoi(emu) : 1);
  if (shmem_n_pes() < min_pes || (on_machine > ngpus && !allow_shared)) {
    if (shmem_my_pe() == 0)
      printf("%d PEs (%d on this machine) and %d GPUs: needs %d+ PEs and a GPU per PE; skipping\n", shmem_n_pes(),
             on_machine, ngpus, min_pes);
    shmem_finalize();
    exit(77);
  }
}

// A GPU PE running a program with device code must get the device heap (docs/gpu.md).
inline void require_device_heap() {
  if (shmemx_heap_kind() != SHMEMX_HEAP_KIND_DEVICE) {
    fprintf(stderr, "FAIL pe %d: expected the device heap kind on a GPU PE\n", shmem_my_pe());
    shmem_global_exit(1);
  }
}

// A seed every PE shares (collective): PE 0 picks it from the clock, the others read it with a
// host-side g on a global.
inline uint64_t shared_seed() {
  static uint64_t seed;
  if (shmem_my_pe() == 0) seed = mix64(static_cast<uint64_t>(time(nullptr)) ^ reinterpret_cast<uintptr_t>(&seed));
  shmem_barrier_all();
  return shmem_uint64_g(&seed, 0);
}

// Progress lines on stderr (PE-prefixed) with GSHMEM_TEST_PROGRESS=1: a hang names its section.
inline void progress(const char* what) {
  static const bool on = [] {
    const char* e = getenv("GSHMEM_TEST_PROGRESS");
    return e && *e == '1';
  }();
  if (on) fprintf(stderr, "[pe %d] %s\n", shmem_my_pe(), what), fflush(stderr);
}

static int g_failures = 0;
#define EXPECT(cond, ...)                                                                          \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, "FAIL pe %d: ", shmem_my_pe());                                              \
      fprintf(stderr, __VA_ARGS__);                                                                \
      fprintf(stderr, "\n");                                                                       \
      ++g_failures;                                                                                \
    }                                                                                              \
  } while (0)
