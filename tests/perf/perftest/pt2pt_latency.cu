// shmem_put_latency, shmem_get_latency, shmem_p_latency, shmem_g_latency (PERFTEST_PROGRAM):
// NVSHMEM 3.4.5 perftest definitions (docs/perf/definitions.md). 2 PEs; PE 0 works on PE 1's
// copy of one symmetric int buffer, the same addresses (offset 0) every iteration; one launch of
// -n iterations on stream 0 after a warm-up launch of -w, timed with CUDA events; the value is
// ms * 1000 / iters in us per iteration.
//   put_latency: three tables, thread <<<1,1>>> put_nbi + quiet; warp <<<1,32>>> and block
//     <<<1,-t>>> blocking put_{warp,block}, syncthreads, thread 0 quiets, syncthreads.
//   get_latency: the same shapes with get_nbi[_warp|_block] and the same quiet steps.
//   p_latency:   <<<1,-t>>>, the message as size/4 int p's spread over the block (thread j does
//     elements j, j+T, ...), syncthreads, thread 0 quiets, syncthreads.
//   g_latency:   <<<1,-t>>> on both PEs (PE 1's loop is empty), PE 0: buf[j] = g(buf + j) for
//     its elements, then syncthreads; no quiet.
#include "perftest.cuh"

#include "../program_name.h"
#ifdef PERFTEST_PROGRAM
static const std::string kProg = GSHMEM_PERF_STR(PERFTEST_PROGRAM);
#else
static const std::string kProg = gshmem_perf_program;
#endif

__global__ void put_thread(int* buf, size_t n, int peer, int iters) {
  for (int i = 0; i < iters; ++i) {
    nvshmem_int_put_nbi(buf, buf, n, peer);
    nvshmem_quiet();
  }
}
__global__ void put_warp(int* buf, size_t n, int peer, int iters) {
  for (int i = 0; i < iters; ++i) {
    nvshmemx_int_put_warp(buf, buf, n, peer);
    __syncthreads();
    if (threadIdx.x == 0) nvshmem_quiet();
    __syncthreads();
  }
}
__global__ void __launch_bounds__(1024) put_block(int* buf, size_t n, int peer, int iters) {
  for (int i = 0; i < iters; ++i) {
    nvshmemx_int_put_block(buf, buf, n, peer);
    __syncthreads();
    if (threadIdx.x == 0) nvshmem_quiet();
    __syncthreads();
  }
}
__global__ void get_thread(int* buf, size_t n, int peer, int iters) {
  for (int i = 0; i < iters; ++i) {
    nvshmem_int_get_nbi(buf, buf, n, peer);
    nvshmem_quiet();
  }
}
__global__ void get_warp(int* buf, size_t n, int peer, int iters) {
  for (int i = 0; i < iters; ++i) {
    nvshmemx_int_get_nbi_warp(buf, buf, n, peer);
    __syncthreads();
    if (threadIdx.x == 0) nvshmem_quiet();
    __syncthreads();
  }
}
__global__ void __launch_bounds__(1024) get_block(int* buf, size_t n, int peer, int iters) {
  for (int i = 0; i < iters; ++i) {
    nvshmemx_int_get_nbi_block(buf, buf, n, peer);
    __syncthreads();
    if (threadIdx.x == 0) nvshmem_quiet();
    __syncthreads();
  }
}
__global__ void __launch_bounds__(1024) p_lat(int* buf, size_t n, int peer, int iters) {
  for (int i = 0; i < iters; ++i) {
    for (size_t j = threadIdx.x; j < n; j += blockDim.x) nvshmem_int_p(buf + j, buf[j], peer);
    __syncthreads();
    if (threadIdx.x == 0) nvshmem_quiet();
    __syncthreads();
  }
}
__global__ void __launch_bounds__(1024) g_lat(int* buf, size_t n, int pe, int iters) {
  const int peer = !pe;
  for (int i = 0; i < iters; ++i) {
    if (pe == 0) {
      for (size_t j = threadIdx.x; j < n; j += blockDim.x) buf[j] = nvshmem_int_g(buf + j, peer);
      __syncthreads();
    }
  }
}

using Kernel = void (*)(int*, size_t, int, int);

int main(int argc, char** argv) {
  const pt::Args a = pt::parse(argc, argv, kProg.c_str());
  pt::init(kProg.c_str());
  const int me = nvshmem_my_pe();
  int rc = 0;
  if (!pt::require_two_pes(kProg.c_str())) {
    rc = 1;
  } else {
    int* buf = static_cast<int*>(nvshmem_malloc(a.max_size));
    pt::check(cudaMemset(buf, 0, a.max_size), "cudaMemset");
    nvshmem_barrier_all();
    pt::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    pt::Timer timer;
    struct Variant {
      const char* job;
      const char* subjob;
      Kernel k;
      int threads;
      bool both;  // both PEs launch (g_latency)
    };
    std::vector<Variant> vs;
    const bool put = kProg == "shmem_put_latency", get = kProg == "shmem_get_latency";
    if (put || get) {
      const bool t = a.scope == "all" || a.scope == "thread", w = a.scope == "all" || a.scope == "warp",
                 b = a.scope == "all" || a.scope == "block";
      // NVSHMEM 3.4.5 titles get_latency's thread table "shmem_g_latency"; ours names the program.
      if (t) vs.push_back({kProg.c_str(), "Thread", put ? put_thread : get_thread, 1, false});
      if (w) vs.push_back({kProg.c_str(), "Warp", put ? put_warp : get_warp, 32, false});
      if (b) vs.push_back({kProg.c_str(), "Block", put ? put_block : get_block, a.threads, false});
    } else if (kProg == "shmem_p_latency") {
      vs.push_back({"shmem_p_latency", "None", p_lat, a.threads, false});
    } else {
      vs.push_back({"shmem_g_latency", "None", g_lat, a.threads, true});
    }
    for (const Variant& v : vs) {
      pt::Table table{v.job, v.subjob, "latency", "us", '-', {}, {}};
      for (size_t size : pt::sizes(a)) {
        const size_t n = size / sizeof(int);
        if (me == 0 || v.both) {
          const int arg = v.both ? me : 1 - me;
          v.k<<<1, v.threads>>>(buf, n, arg, a.warmup);
          const float ms = timer.time(0, [&] { v.k<<<1, v.threads>>>(buf, n, arg, a.iters); });
          if (me == 0) table.add(size, ms * 1000.0 / a.iters);
        }
        nvshmem_barrier_all();
      }
      if (me == 0) table.print(a, kProg.c_str());
    }
    nvshmem_free(buf);
  }
  nvshmem_finalize();
  return rc;
}
