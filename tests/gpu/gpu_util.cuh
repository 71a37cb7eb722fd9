// Helpers for the GPU suites: skip without a GPU, checked CUDA calls, a hash-based payload every
// PE can recompute for any (seed, pe, index), and failure reporting that ends the job.
#pragma once
#include <shmem.h>
#include <shmemx.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

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

inline void skip_without_gpu() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    printf("no CUDA device; skipping\n");
    exit(77);
  }
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
