// First point-to-point figures for GPU PEs (2 PEs): the quantities NVSHMEM's perftest reports,
// timed inside the kernels with %globaltimer after warm-up (median of repeated measurements).
// The full suites, options and the side-by-side runs with NVSHMEM are tests/perf's next step.
#include <shmem.h>
#include <shmemx.h>

#include <algorithm>
#include <cstdio>
#include <vector>

__device__ __forceinline__ unsigned long long now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// kind: 0 put8+quiet, 1 p ping-pong, 2 put_signal 8B ping-pong, 3 get8, 4 fetch_add, 5 barrier_all
__global__ void lat(int kind, uint64_t* buf, uint64_t* sig, int iters, unsigned long long* ns) {
  const int me = shmem_my_pe(), peer = 1 - me;
  uint64_t local = 42, sink = 0;
  unsigned long long t0 = 0;
  for (int i = -100; i < iters; ++i) {  // 100 warm-up rounds
    if (i == 0) t0 = now();
    const uint64_t r = static_cast<uint64_t>(i + 101);
    switch (kind) {
      case 0:
        if (me == 0) {
          shmem_uint64_put(buf, &local, 1, peer);
          shmem_quiet();
        }
        break;
      case 1:
        if (me == 0) {
          shmem_uint64_p(sig, r, peer);
          shmem_uint64_wait_until(sig, SHMEM_CMP_EQ, r);
        } else {
          shmem_uint64_wait_until(sig, SHMEM_CMP_EQ, r);
          shmem_uint64_p(sig, r, peer);
        }
        break;
      case 2:
        if (me == 0) {
          shmem_putmem_signal(buf, &local, 8, sig, r, SHMEM_SIGNAL_SET, peer);
          shmem_signal_wait_until(sig, SHMEM_CMP_EQ, r);
        } else {
          shmem_signal_wait_until(sig, SHMEM_CMP_EQ, r);
          shmem_putmem_signal(buf, &local, 8, sig, r, SHMEM_SIGNAL_SET, peer);
        }
        break;
      case 3:
        if (me == 0) sink += shmem_uint64_g(buf, peer);
        break;
      case 4:
        if (me == 0) sink += shmem_uint64_atomic_fetch_add(buf, 1, peer);
        break;
      case 5:
        shmem_barrier_all();
        break;
    }
  }
  *ns = (now() - t0) + (sink == 1 ? 1 : 0);
}

__global__ void bw(char* dst, const char* src, size_t bytes, int pe, int reps) {
  const size_t chunk = bytes / gridDim.x / 256 * 256;  // equal 256-byte-aligned chunks
  for (int r = 0; r < reps; ++r) shmemx_putmem_nbi_block(dst + blockIdx.x * chunk, src + blockIdx.x * chunk, chunk, pe);
  if (threadIdx.x == 0) shmem_quiet();
}

int main() {
  int ngpus = 0;
  if (cudaGetDeviceCount(&ngpus) != cudaSuccess || ngpus < 2) {
    printf("p2p_first needs 2 GPUs\n");
    return 77;
  }
  shmem_init();
  const int me = shmem_my_pe();
  if (shmem_n_pes() != 2) {
    if (me == 0) printf("run with 2 PEs\n");
    shmem_finalize();
    return 77;
  }
  uint64_t* buf = static_cast<uint64_t*>(shmem_calloc(64, 8));
  uint64_t* sig = static_cast<uint64_t*>(shmem_calloc(64, 8));
  unsigned long long* d_ns;
  cudaMalloc(&d_ns, 8);
  const char* names[] = {"put 8 B + quiet, thread (one way)", "p ping-pong, round trip",
                         "put_signal 8 B ping-pong, round trip", "get 8 B (g), thread", "atomic fetch_add",
                         "device barrier_all, 2 PEs"};
  const int iters = 10000;
  if (me == 0) printf("%-40s %10s\n", "metric", "us");
  for (int kind = 0; kind < 6; ++kind) {
    std::vector<double> samples;
    for (int rep = 0; rep < 5; ++rep) {
      cudaMemset(sig, 0, 64 * 8);
      shmem_barrier_all();
      lat<<<1, 1>>>(kind, buf, sig, iters, d_ns);
      cudaDeviceSynchronize();
      unsigned long long ns = 0;
      cudaMemcpy(&ns, d_ns, 8, cudaMemcpyDeviceToHost);
      samples.push_back(ns / 1000.0 / iters);
      shmem_barrier_all();
    }
    std::sort(samples.begin(), samples.end());
    if (me == 0) printf("%-40s %10.2f\n", names[kind], samples[samples.size() / 2]);
  }
  for (size_t bytes : {size_t(1) << 20, size_t(256) << 20}) {
    char* src = static_cast<char*>(shmem_malloc(bytes));
    char* dst = static_cast<char*>(shmem_malloc(bytes));
    cudaMemset(src, 1, bytes);
    const int reps = bytes >= (64u << 20) ? 5 : 100;
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    for (int blocks : {32, 132, 264}) {
      for (int threads : {512, 1024}) {
        std::vector<double> gbps;
        for (int rep = 0; rep < 5; ++rep) {
          shmem_barrier_all();
          cudaEventRecord(a);
          if (me == 0) bw<<<blocks, threads>>>(dst, src, bytes, 1, reps);
          cudaEventRecord(b);
          cudaEventSynchronize(b);
          float ms = 0;
          cudaEventElapsedTime(&ms, a, b);
          gbps.push_back(static_cast<double>(bytes) * reps / (ms * 1e-3) / 1e9);
        }
        std::sort(gbps.begin(), gbps.end());
        if (me == 0)
          printf("put bandwidth %6zu KiB, block, one way, %4d x %4d  %8.1f GB/s\n", bytes >> 10, blocks, threads,
                 gbps[gbps.size() / 2]);
      }
    }
    shmem_barrier_all();
    shmem_free(dst);
    shmem_free(src);
  }
  shmem_finalize();
  return 0;
}
