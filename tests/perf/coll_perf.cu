// Collective suites (one program per GSHMEM_PERF_SUITE), built for gshmem and for NVSHMEM from
// this source (perf_api.cuh), on any number of PEs (team WORLD, float data):
//   coll_barrier_latency    barrier_all: in a kernel (one block) and on a stream
//   coll_broadcast_latency  broadcast (root 0), fcollect, alltoall and sum reduction: in a kernel
//   coll_fcollect_latency   at block scope (-t threads) timed with %globaltimer over -n calls, and
//   coll_alltoall_latency   on a stream (-n calls between CUDA events); sizes are bytes per PE
//   coll_reduction_latency  (alltoall: per destination PE); the reduction also reports the
//                           on-stream algorithm bandwidth (bytes / time) for large sizes.
//   coll_reducescatter_latency  sum reduce-scatter; the size is each PE's result (its source
//                           holds one such block per PE).
//   coll_exscan_latency     OpenSHMEM 1.6's exclusive sum scan (gshmem only: NVSHMEM has no
//                           scan), the same sizes per PE as fcollect's, to compare with it.
// Latency is per call, averaged; PE 0 reports.
#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <vector>

#include "perf_api.cuh"
#include "perf_common.hpp"

#include "program_name.h"
#ifdef GSHMEM_PERF_SUITE
static const std::string kSuite = GSHMEM_PERF_STR(GSHMEM_PERF_SUITE);
#else
static const std::string kSuite = gshmem_perf_program;
#endif

enum Op { op_barrier, op_bcast, op_fcollect, op_alltoall, op_reduce, op_exscan, op_rs };

__device__ __forceinline__ unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void __launch_bounds__(1024) block_coll(int op, float* d, const float* s, size_t n, int warmup, int iters, unsigned long long* out) {
  unsigned long long t0 = 0;
  for (int i = -warmup; i < iters; ++i) {
    if (i == 0) {
      __syncthreads();
      t0 = now_ns();
    }
    switch (op) {
      case op_barrier: P_barrier_all_block(); break;
      case op_bcast: P_bcast_block(P_TEAM_WORLD, d, s, n, 0); break;
      case op_fcollect: P_fcollect_block(P_TEAM_WORLD, d, s, n); break;
      case op_alltoall: P_alltoall_block(P_TEAM_WORLD, d, s, n); break;
      case op_rs: P_sum_reducescatter_block(P_TEAM_WORLD, d, s, n); break;
#ifdef P_sum_exscan_block
      case op_exscan: P_sum_exscan_block(P_TEAM_WORLD, d, s, n); break;
#endif
      default: P_sum_reduce_block(P_TEAM_WORLD, d, s, n); break;
    }
  }
  if (threadIdx.x == 0) *out = now_ns() - t0;
}

int main(int argc, char** argv) {
  perf_require_gpu(kSuite.c_str());
  Op op;
  if (kSuite == "coll_barrier_latency") op = op_barrier;
  else if (kSuite == "coll_broadcast_latency") op = op_bcast;
  else if (kSuite == "coll_fcollect_latency") op = op_fcollect;
  else if (kSuite == "coll_alltoall_latency") op = op_alltoall;
  else if (kSuite == "coll_exscan_latency") op = op_exscan;
  else if (kSuite == "coll_reducescatter_latency") op = op_rs;
  else op = op_reduce;
#ifndef P_sum_exscan_block
  if (op == op_exscan) {
    fprintf(stderr, "%s: this library has no scan\n", kSuite.c_str());
    return 77;
  }
#endif
  perf::Options d;
  d.iters = 200;
  d.warmup = 20;
  d.min_size = 4;
  d.max_size = op == op_barrier ? 4 : (1u << 20);
  d.threads = 256;
  d.scope = "block";
  const perf::Options o = perf::parse(argc, argv, kSuite.c_str(), d);
  P_init();
  const int me = P_my_pe(), npes = P_n_pes();
  perf::Report report(kSuite, o, npes, P_IMPL);
  const size_t per_pe = std::max<size_t>(o.max_size, 64);
  const size_t buf = per_pe * static_cast<size_t>(npes);
  float* dst = static_cast<float*>(P_malloc(buf));
  float* src = static_cast<float*>(P_malloc(buf));
  unsigned long long* d_ns;
  cudaMalloc(&d_ns, sizeof *d_ns);
  cudaMemset(src, 0, buf);
  cudaMemset(dst, 0, buf);
  cudaStream_t st;
  cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking);
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaDeviceSynchronize();
  P_barrier_all();
  for (size_t bytes : perf::sizes(o)) {
    const size_t n = std::max<size_t>(bytes / sizeof(float), 1);
    // in a kernel, block scope
    const int iters_block = bytes > (1u << 20) ? std::max(1, o.iters / 10) : o.iters;
    {
      int opi = op, w = o.warmup;
      float* dp = dst;
      const float* sp = src;
      size_t nn = n;
      unsigned long long* out = d_ns;
      void* args[] = {&opi, &dp, &sp, &nn, &w, const_cast<int*>(&iters_block), &out};
      // A collective launch where the implementation accepts it, else a plain one-block launch.
      if (P_collective_launch((const void*)block_coll, dim3(1), dim3(o.threads), args, 0, st) != 0) {
        cudaGetLastError();
        block_coll<<<1, o.threads, 0, st>>>(opi, dp, sp, nn, w, iters_block, out);
      }
    }
    cudaStreamSynchronize(st);
    perf_check_kernel("collective kernel", o.threads);
    unsigned long long ns = 0;
    cudaMemcpy(&ns, d_ns, sizeof ns, cudaMemcpyDeviceToHost);
    report.add(bytes, "block", ns / 1000.0 / iters_block, "us");
    // on a stream
    P_barrier_all();
    auto enqueue = [&] {
      switch (op) {
        case op_barrier: P_barrier_all_on_stream(st); break;
        case op_bcast: P_bcast_on_stream(P_TEAM_WORLD, dst, src, n, 0, st); break;
        case op_fcollect: P_fcollect_on_stream(P_TEAM_WORLD, dst, src, n, st); break;
        case op_alltoall: P_alltoall_on_stream(P_TEAM_WORLD, dst, src, n, st); break;
        case op_rs: P_sum_reducescatter_on_stream(P_TEAM_WORLD, dst, src, n, st); break;
#ifdef P_sum_exscan_on_stream
        case op_exscan: P_sum_exscan_on_stream(P_TEAM_WORLD, dst, src, n, st); break;
#endif
        default: P_sum_reduce_on_stream(P_TEAM_WORLD, dst, src, n, st); break;
      }
    };
    for (int i = 0; i < o.warmup; ++i) enqueue();
    cudaStreamSynchronize(st);
    P_barrier_all();
    cudaEventRecord(a, st);
    for (int i = 0; i < o.iters; ++i) enqueue();
    cudaEventRecord(b, st);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    const double us = ms * 1e3 / o.iters;
    report.add(bytes, "stream", us, "us");
    if (op == op_reduce && bytes >= (1u << 20)) report.add(bytes, "stream_bw", bytes / (us * 1e-6) / 1e9, "GB/s");
    P_barrier_all();
  }
  if (me == 0) report.print();
  P_barrier_all();
  P_free(src);
  P_free(dst);
  P_finalize();
  return 0;
}
