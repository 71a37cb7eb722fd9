// shmem_p_ping_pong_latency, shmem_signal_ping_pong_latency, shmem_put_signal_ping_pong_latency,
// shmem_put_ping_pong_latency (PERFTEST_PROGRAM): NVSHMEM 3.4.5 perftest definitions
// (docs/perf/definitions.md). 2 PEs, one collective launch of one block per PE; PE 0 sends, PE 1
// waits for it and answers; iteration i signals i + 1 into the peer's uint64 flag and waits
// (uint64 wait_until ==) on its own; the kernel ends with a quiet. The same data and flag
// addresses every iteration. Timed with CUDA events around the launch of -n iterations, after a
// warm-up launch of -w, the flag reset and a barrier in between; the value is a full round trip:
// ms * 1000 / iters us.
//   p_ping_pong:          <<<1,-t>>>, size/4 int p's spread over the block, syncthreads, thread 0
//                         fences and signals (signal_op SET), syncthreads; thread 0 waits.
//   signal_ping_pong:     <<<1,1>>>, signal_op SET and wait; one row (8 B).
//   put_signal_ping_pong: <<<1,1>>>, int put_signal_nbi (SET) of the message, wait.
//   put_ping_pong:        <<<1,1>>>, int put_nbi, fence, signal_op SET, wait.
#include "perftest.cuh"

#include "../program_name.h"
#ifdef PERFTEST_PROGRAM
static const std::string kProg = GSHMEM_PERF_STR(PERFTEST_PROGRAM);
#else
static const std::string kProg = gshmem_perf_program;
#endif

__global__ void __launch_bounds__(1024) p_pp(int* data, uint64_t* flag, size_t n, int pe, int iters) {
  const int peer = !pe;
  for (int i = 0; i < iters; ++i) {
    const uint64_t v = static_cast<uint64_t>(i) + 1;
    if (pe) {
      if (threadIdx.x == 0) nvshmem_uint64_wait_until(flag, NVSHMEM_CMP_EQ, v);
      __syncthreads();
    }
    for (size_t j = threadIdx.x; j < n; j += blockDim.x) nvshmem_int_p(data + j, data[j], peer);
    __syncthreads();
    if (threadIdx.x == 0) {
      nvshmem_fence();
      nvshmemx_signal_op(flag, v, NVSHMEM_SIGNAL_SET, peer);
    }
    __syncthreads();
    if (!pe) {
      if (threadIdx.x == 0) nvshmem_uint64_wait_until(flag, NVSHMEM_CMP_EQ, v);
      __syncthreads();
    }
  }
  if (threadIdx.x == 0) nvshmem_quiet();
}

__global__ void signal_pp(int*, uint64_t* flag, size_t, int pe, int iters) {
  const int peer = !pe;
  for (int i = 0; i < iters; ++i) {
    const uint64_t v = static_cast<uint64_t>(i) + 1;
    if (pe) {
      nvshmem_uint64_wait_until(flag, NVSHMEM_CMP_EQ, v);
      nvshmemx_signal_op(flag, v, NVSHMEM_SIGNAL_SET, peer);
    } else {
      nvshmemx_signal_op(flag, v, NVSHMEM_SIGNAL_SET, peer);
      nvshmem_uint64_wait_until(flag, NVSHMEM_CMP_EQ, v);
    }
  }
  nvshmem_quiet();
}

__global__ void put_signal_pp(int* data, uint64_t* flag, size_t n, int pe, int iters) {
  const int peer = !pe;
  for (int i = 0; i < iters; ++i) {
    const uint64_t v = static_cast<uint64_t>(i) + 1;
    if (pe) {
      nvshmem_uint64_wait_until(flag, NVSHMEM_CMP_EQ, v);
      nvshmem_int_put_signal_nbi(data, data, n, flag, v, NVSHMEM_SIGNAL_SET, peer);
    } else {
      nvshmem_int_put_signal_nbi(data, data, n, flag, v, NVSHMEM_SIGNAL_SET, peer);
      nvshmem_uint64_wait_until(flag, NVSHMEM_CMP_EQ, v);
    }
  }
  nvshmem_quiet();
}

__global__ void put_pp(int* data, uint64_t* flag, size_t n, int pe, int iters) {
  const int peer = !pe;
  for (int i = 0; i < iters; ++i) {
    const uint64_t v = static_cast<uint64_t>(i) + 1;
    if (pe) nvshmem_uint64_wait_until(flag, NVSHMEM_CMP_EQ, v);
    nvshmem_int_put_nbi(data, data, n, peer);
    nvshmem_fence();
    nvshmemx_signal_op(flag, v, NVSHMEM_SIGNAL_SET, peer);
    if (!pe) nvshmem_uint64_wait_until(flag, NVSHMEM_CMP_EQ, v);
  }
  nvshmem_quiet();
}

using Kernel = void (*)(int*, uint64_t*, size_t, int, int);

int main(int argc, char** argv) {
  const pt::Args a = pt::parse(argc, argv, kProg.c_str());
  pt::init(kProg.c_str());
  const int me = nvshmem_my_pe();
  int rc = 0;
  if (!pt::require_two_pes(kProg.c_str())) {
    rc = 1;
  } else {
    Kernel k = nullptr;
    int threads = 1;
    const char* job = "";
    if (kProg == "shmem_p_ping_pong_latency") {
      k = p_pp;
      threads = a.threads;
      job = "shmem_ping_pong_lat";
    } else if (kProg == "shmem_signal_ping_pong_latency") {
      k = signal_pp;
      job = "shmem_sig_ping_lat";
    } else if (kProg == "shmem_put_signal_ping_pong_latency") {
      k = put_signal_pp;
      job = "shmem_put_signal_ping_lat";
    } else {
      k = put_pp;
      job = "shmem_put_ping_lat";
    }
    const bool sized = k != signal_pp;
    int* data = static_cast<int*>(nvshmem_malloc(sized ? a.max_size : 4));
    uint64_t* flag = static_cast<uint64_t*>(nvshmem_malloc(sizeof(uint64_t)));
    pt::check(cudaMemset(data, 0, sized ? a.max_size : 4), "cudaMemset");
    cudaStream_t st = 0;
    if (k != p_pp) pt::check(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking), "cudaStreamCreate");
    pt::Timer timer;
    pt::Table table{job, "None", "latency", "us", '-', {}, {}};
    if (me == 0) printf("Note: This test measures full round-trip latency\n");
    const std::vector<size_t> sz = sized ? pt::sizes(a) : std::vector<size_t>{sizeof(uint64_t)};
    for (size_t size : sz) {
      size_t n = sized ? size / sizeof(int) : 0;
      int pe = me, w = a.warmup, it = a.iters;
      int* d = data;
      uint64_t* f = flag;
      void* warm[] = {&d, &f, &n, &pe, &w};
      void* timed[] = {&d, &f, &n, &pe, &it};
      auto launch = [&](void** args) {
        if (nvshmemx_collective_launch((const void*)k, dim3(1), dim3(threads), args, 0, st) != 0) {
          fprintf(stderr, "%s: nvshmemx_collective_launch failed (PE %d, %d threads)\n", kProg.c_str(), me, threads);
          exit(1);
        }
      };
      pt::check(cudaMemset(flag, 0, sizeof(uint64_t)), "cudaMemset");
      pt::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
      nvshmem_barrier_all();
      launch(warm);
      pt::check(cudaDeviceSynchronize(), "warm-up kernel");
      pt::check(cudaMemset(flag, 0, sizeof(uint64_t)), "cudaMemset");
      pt::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
      nvshmem_barrier_all();
      const float ms = timer.time(st, [&] { launch(timed); });
      table.add(size, ms * 1000.0 / a.iters);
      nvshmem_barrier_all();
    }
    if (me == 0) table.print(a, kProg.c_str());
    if (st) cudaStreamDestroy(st);
    nvshmem_free(flag);
    nvshmem_free(data);
  }
  nvshmem_finalize();
  return rc;
}
