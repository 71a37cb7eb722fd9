// GPU suites, one program per suite (GSHMEM_PERF_SUITE), built for gshmem and for NVSHMEM from
// this source (perf_api.cuh). Definitions follow NVSHMEM's perftest: latency suites time one
// thread's operation inside the kernel with %globaltimer (put/get: + completion; ping-pong: round
// trip); bandwidth suites time -n transfers of -c blocks x -t threads (block scope, nbi + quiet)
// with CUDA events; --bidir: both PEs send at once (sum reported). 2 PEs, PE 0 measures.
#include <cuda_runtime.h>

#include <chrono>

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

enum Kind { put_lat, get_lat, p_lat, g_lat, p_pp, signal_pp, put_signal_pp, amo_lat, barrier_lat };

__device__ __forceinline__ unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// One thread per PE (put/get latency: one thread, one warp or one block, -s; the whole group
// calls the scoped put/get, then one thread quiets, as NVSHMEM's perftest); returns ns for iters
// timed rounds after warmup rounds in *out.
// Every iteration touches a different address (stride apart within region), so reads cannot be
// served by a cache: a g or get is a real remote access, as a latency has to be.
// One kernel per scope, operation and atomic (template parameters), as NVSHMEM's perftest has one
// small kernel per test: with every operation behind a run-time switch in one kernel, that kernel
// held 72 registers, spilled its loop counter to the stack and went through two indirect jumps per
// iteration, which cost both libraries about 0.4 us per g or get (2 x H200, 2026-11-22: the
// suite's loop in raw CUDA, remote_get_suite_shape in shmem_floors, takes 0.96 us; gshmem's get
// measured 1.49 us and NVSHMEM's 1.45 us in that kernel). The block kernel may be launched with
// 1024 threads: its launch bound holds it to the 64 registers per thread that allows.
enum Scope { thread_scope, warp_scope, block_scope };
template <int scope, int kind, int amo>
__global__ void __launch_bounds__(scope == block_scope ? 1024 : 32)
    latency(char* data_base, const char* src_base, size_t bytes, size_t region, size_t stride, uint64_t* sig,
            int warmup, int iters, unsigned long long* out) {
  const int me = P_my_pe(), peer = 1 - me;
  unsigned long long t0 = 0;
  uint64_t sink = 0;
  for (int i = -warmup; i < iters; ++i) {
    if (i == 0) t0 = now_ns();
    const uint64_t r = static_cast<uint64_t>(i + warmup + 1);
    const size_t off = (static_cast<size_t>(i + warmup) * stride) % (region - bytes + 1) / 64 * 64;
    char* data = data_base + off;
    const char* src = src_base + off;
    uint64_t* word = reinterpret_cast<uint64_t*>(data);
    if constexpr (scope != thread_scope) {  // put_latency / get_latency -s warp|block only
      if (me == 0) {
        if constexpr (kind == put_lat) {
          if constexpr (scope == block_scope) P_putmem_block(data, src, bytes, peer);
          else P_putmem_warp(data, src, bytes, peer);
          __syncthreads();
          if (threadIdx.x == 0) P_quiet();
        } else {
          if constexpr (scope == block_scope) P_getmem_block(data, src, bytes, peer);
          else P_getmem_warp(data, src, bytes, peer);
        }
        __syncthreads();
      }
    } else if constexpr (kind == put_lat) {  // the same steps as the scoped form, with one thread
      if (me == 0) {
        P_putmem(data, src, bytes, peer);
        __syncthreads();
        P_quiet();
        __syncthreads();
      }
    } else if constexpr (kind == get_lat) {
      if (me == 0) {
        P_getmem(data, src, bytes, peer);
        __syncthreads();
      }
    } else if constexpr (kind == p_lat) {
      if (me == 0) {
        P_p(word, r, peer);
        P_quiet();
      }
    } else if constexpr (kind == g_lat) {
      if (me == 0) sink += P_g(word, peer);
    } else if constexpr (kind == p_pp) {  // p + fence + p(flag); wait for the echo
      if (me == 0) {
        P_p(word, r, peer);
        P_fence();
        P_p(sig, r, peer);
        P_wait_until(sig, P_CMP_EQ, r);
      } else {
        P_wait_until(sig, P_CMP_EQ, r);
        P_p(word, r, peer);
        P_fence();
        P_p(sig, r, peer);
      }
    } else if constexpr (kind == signal_pp) {
      if (me == 0) {
        P_signal_op(sig, r, P_SIGNAL_SET, peer);
        P_signal_wait_until(sig, P_CMP_EQ, r);
      } else {
        P_signal_wait_until(sig, P_CMP_EQ, r);
        P_signal_op(sig, r, P_SIGNAL_SET, peer);
      }
    } else if constexpr (kind == put_signal_pp) {
      if (me == 0) {
        P_putmem_signal(data, src, bytes, sig, r, P_SIGNAL_SET, peer);
        P_signal_wait_until(sig, P_CMP_EQ, r);
      } else {
        P_signal_wait_until(sig, P_CMP_EQ, r);
        P_putmem_signal(data, src, bytes, sig, r, P_SIGNAL_SET, peer);
      }
    } else if constexpr (kind == amo_lat) {
      if (me == 0) {
        if constexpr (amo == 0) sink += P_fetch_add(word, 1, peer);
        else if constexpr (amo == 1) sink += P_fetch(word, peer);
        else if constexpr (amo == 2) sink += P_cswap(word, r, r + 1, peer);
        else if constexpr (amo == 3) sink += P_swap(word, r, peer);
        else if constexpr (amo == 4) {
          P_set(word, r, peer);
          P_quiet();
        } else {
          P_add(word, 1, peer);
          P_quiet();
        }
      }
    } else {
      P_dev_barrier_all();
    }
  }
  if (threadIdx.x == 0) *out = now_ns() - t0 + (sink == 42 ? 1 : 0);
}

using LatencyKernel = void (*)(char*, const char*, size_t, size_t, size_t, uint64_t*, int, int, unsigned long long*);
// The kernel for (scope, kind, amo); scoped kernels exist for put and get only.
template <int scope>
static LatencyKernel latency_kernel(int kind, int amo) {
  if constexpr (scope != thread_scope) return kind == put_lat ? latency<scope, put_lat, 0> : latency<scope, get_lat, 0>;
  else {
    switch (kind) {
      case put_lat: return latency<scope, put_lat, 0>;
      case get_lat: return latency<scope, get_lat, 0>;
      case p_lat: return latency<scope, p_lat, 0>;
      case g_lat: return latency<scope, g_lat, 0>;
      case p_pp: return latency<scope, p_pp, 0>;
      case signal_pp: return latency<scope, signal_pp, 0>;
      case put_signal_pp: return latency<scope, put_signal_pp, 0>;
      case barrier_lat: return latency<scope, barrier_lat, 0>;
      default: break;
    }
    static constexpr LatencyKernel amos[] = {latency<scope, amo_lat, 0>, latency<scope, amo_lat, 1>,
                                             latency<scope, amo_lat, 2>, latency<scope, amo_lat, 3>,
                                             latency<scope, amo_lat, 4>, latency<scope, amo_lat, 5>};
    return amos[amo];
  }
}

// Repetition r uses the r-th bytes-sized slice of region (wrapping), so repeated transfers of a
// small size stream through more memory than the L2 holds and measure the link, not a cache.
// mode 0: putmem_nbi_block; 1: getmem_nbi_block; 2 (p_bw): every thread p's 8-byte words;
// 3 (st_bw): every thread stores 8-byte words through the peer pointer (shmem_ptr).
__global__ void __launch_bounds__(1024) bandwidth(char* dst, char* src, size_t bytes, size_t region, int peer, int reps, int mode) {
  const size_t chunk = bytes / gridDim.x / 16 * 16;
  const size_t slices = region / bytes;
  uint64_t* pdst = mode == 3 ? static_cast<uint64_t*>(P_ptr(dst, peer)) : nullptr;
  for (int r = 0; r < reps; ++r) {
    const size_t base = (static_cast<size_t>(r) % slices) * bytes + blockIdx.x * chunk;
    if (mode == 1) P_getmem_nbi_block(dst + base, src + base, chunk, peer);
    else if (mode == 0) P_putmem_nbi_block(dst + base, src + base, chunk, peer);
    else {
      const uint64_t* s = reinterpret_cast<const uint64_t*>(src + base);
      for (size_t i = threadIdx.x; i < chunk / 8; i += blockDim.x) {
        if (mode == 2) P_p(reinterpret_cast<uint64_t*>(dst + base) + i, s[i], peer);
        else pdst[(base / 8) + i] = s[i];
      }
    }
  }
  if (threadIdx.x == 0) P_quiet();
}

int main(int argc, char** argv) {
  perf_require_gpu(kSuite.c_str());
  const bool bw = kSuite.find("_bw") != std::string::npos;
  const bool host_side = kSuite.rfind("host_", 0) == 0 || kSuite.rfind("stream_", 0) == 0;
  perf::Options d;
  d.iters = bw ? 20 : 1000;
  d.warmup = bw ? 2 : 100;
  d.min_size = 8;
  d.max_size = bw ? (64u << 20) : 8;
  if (bw && !host_side) {
    d.min_size = 64 << 10;
    d.ctas = 132;
    d.threads = 1024;
    d.scope = "block";
  }
  const perf::Options o = perf::parse(argc, argv, kSuite.c_str(), d);
  // init_latency: the wall time of the init call on each PE (PE 0 reports; the bootstrap, the
  // heap and the peer mappings are all inside it for both implementations).
  const auto init_t0 = std::chrono::steady_clock::now();
  P_init();
  const double init_us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - init_t0).count();
  const int me = P_my_pe(), npes = P_n_pes();
  if (npes != 2) {
    if (me == 0) fprintf(stderr, "%s: run with 2 PEs\n", kSuite.c_str());
    P_finalize();
    return 2;
  }
  perf::Report report(kSuite, o, npes, P_IMPL);
  if (kSuite == "init_latency") {
    if (me == 0) {
      report.add(0, "init", init_us, "us");
      report.print();
    }
    P_barrier_all();
    P_finalize();
    return 0;
  }
  // 256 MiB (at least twice the largest transfer) per buffer: more than the 50 MB L2.
  const size_t region = std::max<size_t>(size_t(256) << 20, 2 * o.max_size);
  char* data = static_cast<char*>(P_malloc(region));
  char* src = static_cast<char*>(P_malloc(region));
  uint64_t* sig = static_cast<uint64_t*>(P_malloc(64));
  unsigned long long* d_ns;
  cudaMalloc(&d_ns, sizeof *d_ns);
  cudaMemset(src, 1, region);
  cudaMemset(data, 0, region);
  cudaDeviceSynchronize();
  P_barrier_all();

  // -s warp / block: put_latency and get_latency only (one warp of 32 / one block of -t threads)
  const int scope = o.scope == "block" ? block_scope : o.scope == "warp" ? warp_scope : thread_scope;
  const bool scoped = kSuite == "put_latency" || kSuite == "get_latency";
  if (!bw && !host_side && scope != thread_scope && !scoped) {
    if (me == 0) fprintf(stderr, "%s: -s %s applies to put_latency and get_latency only\n", kSuite.c_str(), o.scope.c_str());
    P_finalize();
    return 2;
  }
  if (scoped && scope == block_scope && (o.threads < 32 || o.threads > 1024)) {
    if (me == 0) fprintf(stderr, "%s: -s block needs -t 32..1024 (got %d)\n", kSuite.c_str(), o.threads);
    P_finalize();
    return 2;
  }
  const int lat_threads = scope == block_scope ? o.threads : scope == warp_scope ? 32 : 1;
  auto run_latency = [&](int kind, int amo, size_t bytes) {
    cudaMemset(sig, 0, 64);
    cudaDeviceSynchronize();
    P_barrier_all();
    const size_t stride = std::max<size_t>(size_t(64) << 10, (bytes + 65535) / 65536 * 65536);
    const LatencyKernel k = scope == block_scope  ? latency_kernel<block_scope>(kind, amo)
                            : scope == warp_scope ? latency_kernel<warp_scope>(kind, amo)
                                                  : latency_kernel<thread_scope>(kind, amo);
    k<<<1, lat_threads>>>(data, src, bytes, region, stride, sig, o.warmup, o.iters, d_ns);
    perf_check_kernel("latency kernel", lat_threads);
    unsigned long long ns = 0;
    cudaMemcpy(&ns, d_ns, sizeof ns, cudaMemcpyDeviceToHost);
    P_barrier_all();
    return ns / 1000.0 / o.iters;
  };

  if (kSuite.rfind("host_", 0) == 0 || kSuite.rfind("stream_", 0) == 0) {
    // Host-initiated operations on the device heap (same definitions: put + quiet; blocking get;
    // stream: put_signal on the stream and the peer's echo, round trip, timed with CUDA events).
    cudaStream_t st;
    cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking);
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    const int peer = 1 - me;
    for (size_t s : perf::sizes(o)) {
      double us = 0;
      P_barrier_all();
      if (kSuite == "host_put_latency" || kSuite == "host_get_latency") {
        std::vector<char> host(s, 1);
        const bool put = kSuite == "host_put_latency";
        if (me == 0) {
          for (int i = 0; i < o.warmup; ++i) put ? P_putmem(data, host.data(), s, peer) : P_getmem(host.data(), src, s, peer);
          P_quiet();
          auto t0 = std::chrono::steady_clock::now();
          for (int i = 0; i < o.iters; ++i) {
            if (put) {
              P_putmem(data, host.data(), s, peer);
              P_quiet();
            } else {
              P_getmem(host.data(), src, s, peer);
            }
          }
          us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / o.iters;
        }
      } else if (kSuite == "stream_latency") {
        cudaMemsetAsync(sig, 0, 64, st);
        cudaStreamSynchronize(st);
        P_barrier_all();
        cudaEventRecord(a, st);
        for (int i = 1; i <= o.iters; ++i) {
          if (me == 0) {
            P_putmem_signal_on_stream(data, src, s, sig, i, P_SIGNAL_SET, peer, st);
            P_signal_wait_until_on_stream(sig, P_CMP_GE, i, st);
          } else {
            P_signal_wait_until_on_stream(sig, P_CMP_GE, i, st);
            P_putmem_signal_on_stream(data, src, s, sig, i, P_SIGNAL_SET, peer, st);
          }
        }
        cudaEventRecord(b, st);
        cudaEventSynchronize(b);
        float ms = 0;
        cudaEventElapsedTime(&ms, a, b);
        us = ms * 1e3 / o.iters;
      } else if (kSuite == "stream_put_bw") {
        cudaEventRecord(a, st);
        if (me == 0)
          for (int i = 0; i < o.iters; ++i) P_putmem_on_stream(data + (i % (region / s)) * s, src, s, peer, st);
        cudaEventRecord(b, st);
        cudaEventSynchronize(b);
        float ms = 0;
        cudaEventElapsedTime(&ms, a, b);
        if (me == 0) report.add(s, "bandwidth", static_cast<double>(s) * o.iters / (ms * 1e-3) / 1e9, "GB/s");
        continue;
      }
      if (me == 0) report.add(s, "latency", us, "us");
    }
  } else if (bw) {
    const int mode = kSuite == "p_bw" ? 2 : kSuite == "st_bw" ? 3 : kSuite.find("get") != std::string::npos ? 1 : 0;
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    for (size_t s : perf::sizes(o)) {
      std::vector<double> samples;
      for (int rep = 0; rep < 5; ++rep) {
        cudaDeviceSynchronize();
        P_barrier_all();
        cudaEventRecord(a);
        if (me == 0 || o.bidir) bandwidth<<<o.ctas, o.threads>>>(data, src, s, region, 1 - me, o.iters, mode);
        cudaEventRecord(b);
        perf_check_kernel("bandwidth kernel", o.threads);
        float ms = 0;
        cudaEventElapsedTime(&ms, a, b);
        samples.push_back(static_cast<double>(s / o.ctas / 16 * 16 * o.ctas) * o.iters / (ms * 1e-3) / 1e9);
      }
      // --bidir: both directions run at once; the figure is one direction's (PE 0's), and the
      // runner reports twice it as the both-ways total, as NVSHMEM's perftest does.
      P_barrier_all();
      report.add(s, o.bidir ? "bandwidth_one_dir_of_bidir" : "bandwidth", perf::median(samples), "GB/s");
    }
  } else {
    struct Entry {
      const char* suite;
      int kind;
    };
    const Entry table[] = {{"put_latency", put_lat},         {"get_latency", get_lat},
                           {"p_latency", p_lat},             {"g_latency", g_lat},
                           {"p_ping_pong_latency", p_pp},    {"signal_ping_pong_latency", signal_pp},
                           {"put_signal_ping_pong_latency", put_signal_pp}, {"atomic_latency", amo_lat},
                           {"barrier_latency", barrier_lat}};
    int kind = -1;
    for (const Entry& e : table)
      if (kSuite == e.suite) kind = e.kind;
    if (kind < 0) {
      if (me == 0) fprintf(stderr, "unknown suite %s\n", kSuite.c_str());
      P_finalize();
      return 2;
    }
    if (kind == amo_lat) {
      const char* names[] = {"fetch_add", "fetch", "compare_swap", "swap", "set", "add"};
      for (int op = 0; op < 6; ++op) report.add(8, names[op], run_latency(kind, op, 8), "us");
    } else if (kind == barrier_lat || kind == signal_pp || kind == p_pp || kind == p_lat || kind == g_lat) {
      report.add(8, "latency", run_latency(kind, 0, 8), "us");
    } else {
      for (size_t s : perf::sizes(o)) report.add(s, "latency", run_latency(kind, 0, s), "us");
    }
  }
  if (me == 0) report.print();
  P_barrier_all();
  P_free(sig);
  P_free(src);
  P_free(data);
  P_finalize();
  return 0;
}
