// GPU suites, one program per suite (GSHMEM_PERF_SUITE), built for gshmem and for NVSHMEM from
// this source (perf_api.cuh). Definitions follow NVSHMEM's perftest: latency suites time one
// thread's operation inside the kernel with %globaltimer (put/get: + completion; ping-pong: round
// trip); bandwidth suites time -n transfers of -c blocks x -t threads (block scope, nbi + quiet)
// with CUDA events; --bidir: both PEs send at once (sum reported). 2 PEs, PE 0 measures.
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "perf_api.cuh"
#include "perf_common.hpp"

#define STR2(x) #x
#define STR(x) STR2(x)
static const std::string kSuite = STR(GSHMEM_PERF_SUITE);

enum Kind { put_lat, get_lat, p_lat, g_lat, p_pp, signal_pp, put_signal_pp, amo_lat, barrier_lat };

__device__ __forceinline__ unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// One thread per PE; returns ns for iters timed rounds after warmup rounds in *out.
__global__ void latency(int kind, int amo, char* data, const char* src, size_t bytes, uint64_t* sig, int warmup,
                        int iters, unsigned long long* out) {
  const int me = P_my_pe(), peer = 1 - me;
  unsigned long long t0 = 0;
  uint64_t sink = 0;
  uint64_t* word = reinterpret_cast<uint64_t*>(data);
  for (int i = -warmup; i < iters; ++i) {
    if (i == 0) t0 = now_ns();
    const uint64_t r = static_cast<uint64_t>(i + warmup + 1);
    switch (kind) {
      case put_lat:
        if (me == 0) {
          P_putmem(data, src, bytes, peer);
          P_quiet();
        }
        break;
      case get_lat:
        if (me == 0) P_getmem(data, src, bytes, peer);
        break;
      case p_lat:
        if (me == 0) {
          P_p(word, r, peer);
          P_quiet();
        }
        break;
      case g_lat:
        if (me == 0) sink += P_g(word, peer);
        break;
      case p_pp:  // p + fence + p(flag); wait for the echo
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
        break;
      case signal_pp:
        if (me == 0) {
          P_signal_op(sig, r, P_SIGNAL_SET, peer);
          P_signal_wait_until(sig, P_CMP_EQ, r);
        } else {
          P_signal_wait_until(sig, P_CMP_EQ, r);
          P_signal_op(sig, r, P_SIGNAL_SET, peer);
        }
        break;
      case put_signal_pp:
        if (me == 0) {
          P_putmem_signal(data, src, bytes, sig, r, P_SIGNAL_SET, peer);
          P_signal_wait_until(sig, P_CMP_EQ, r);
        } else {
          P_signal_wait_until(sig, P_CMP_EQ, r);
          P_putmem_signal(data, src, bytes, sig, r, P_SIGNAL_SET, peer);
        }
        break;
      case amo_lat:
        if (me == 0) {
          switch (amo) {
            case 0: sink += P_fetch_add(word, 1, peer); break;
            case 1: sink += P_fetch(word, peer); break;
            case 2: sink += P_cswap(word, r, r + 1, peer); break;
            case 3: sink += P_swap(word, r, peer); break;
            case 4: P_set(word, r, peer); P_quiet(); break;
            default: P_add(word, 1, peer); P_quiet(); break;
          }
        }
        break;
      default:
        P_dev_barrier_all();
    }
  }
  *out = now_ns() - t0 + (sink == 42 ? 1 : 0);
}

__global__ void bandwidth(char* dst, char* src, size_t bytes, int peer, int reps, bool get) {
  const size_t chunk = bytes / gridDim.x / 16 * 16;
  char* d = dst + blockIdx.x * chunk;
  char* s = src + blockIdx.x * chunk;
  for (int r = 0; r < reps; ++r) {
    if (get) P_getmem_nbi_block(d, s, chunk, peer);
    else P_putmem_nbi_block(d, s, chunk, peer);
  }
  if (threadIdx.x == 0) P_quiet();
}

int main(int argc, char** argv) {
  const bool bw = kSuite.find("_bw") != std::string::npos;
  perf::Options d;
  d.iters = bw ? 20 : 1000;
  d.warmup = bw ? 2 : 100;
  d.min_size = 8;
  d.max_size = bw ? (64u << 20) : 8;
  if (bw) {
    d.min_size = 64 << 10;
    d.ctas = 132;
    d.threads = 1024;
    d.scope = "block";
  }
  const perf::Options o = perf::parse(argc, argv, kSuite.c_str(), d);
  P_init();
  const int me = P_my_pe(), npes = P_n_pes();
  if (npes != 2) {
    if (me == 0) fprintf(stderr, "%s: run with 2 PEs\n", kSuite.c_str());
    P_finalize();
    return 2;
  }
  perf::Report report(kSuite, o, npes, P_IMPL);
  char* data = static_cast<char*>(P_malloc(o.max_size + 256));
  char* src = static_cast<char*>(P_malloc(o.max_size + 256));
  uint64_t* sig = static_cast<uint64_t*>(P_malloc(64));
  unsigned long long* d_ns;
  cudaMalloc(&d_ns, sizeof *d_ns);
  cudaMemset(src, 1, o.max_size);
  cudaMemset(data, 0, o.max_size);
  cudaDeviceSynchronize();
  P_barrier_all();

  auto run_latency = [&](int kind, int amo, size_t bytes) {
    cudaMemset(sig, 0, 64);
    cudaDeviceSynchronize();
    P_barrier_all();
    latency<<<1, 1>>>(kind, amo, data, src, bytes, sig, o.warmup, o.iters, d_ns);
    cudaDeviceSynchronize();
    unsigned long long ns = 0;
    cudaMemcpy(&ns, d_ns, sizeof ns, cudaMemcpyDeviceToHost);
    P_barrier_all();
    return ns / 1000.0 / o.iters;
  };

  if (bw) {
    const bool get = kSuite.find("get") != std::string::npos;
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    for (size_t s : perf::sizes(o)) {
      std::vector<double> samples;
      for (int rep = 0; rep < 5; ++rep) {
        cudaDeviceSynchronize();
        P_barrier_all();
        cudaEventRecord(a);
        if (me == 0 || o.bidir) bandwidth<<<o.ctas, o.threads>>>(data, src, s, 1 - me, o.iters, get);
        cudaEventRecord(b);
        cudaEventSynchronize(b);
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
