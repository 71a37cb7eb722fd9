// shmem_put_bw, shmem_get_bw, shmem_p_bw, shmem_g_bw, shmem_st_bw (PERFTEST_PROGRAM): NVSHMEM 3.4.5
// perftest definitions (docs/perf/definitions.md). 2 PEs; PE 0 (both with --bidir, put/get only)
// launches <<<-c, -t>>> (default 32 x 256) on stream 0: every iteration moves the same bytes of
// one symmetric buffer (offset 0 .. size) to or from the peer's same offsets, then all blocks meet
// in a grid barrier; the last barrier quiets (not for g). One launch of -n iterations after a
// warm-up launch of -w, timed with CUDA events; bandwidth = size * iters / (ms * 10^6) GB/s
// (NVSHMEM's expression, 10^9 bytes); --bidir reports the sum of both PEs' figures.
//   put_bw / get_bw: each block moves its len / blocks doubles with put_nbi_block / get_nbi_block.
//   p_bw / g_bw:     every element (type from -d: 2, 4 or 8 bytes) by one p / g of the local value
//                    into the same index, two per thread per slice of 2 x threads x stride,
//                    syncthreads after each full slice; iterations x stride (-i).
//   st_bw:           8-byte stores through nvshmem_ptr, the p_bw pattern.
#include "perftest.cuh"

#include "../program_name.h"
#ifdef PERFTEST_PROGRAM
static const std::string kProg = GSHMEM_PERF_STR(PERFTEST_PROGRAM);
#else
static const std::string kProg = gshmem_perf_program;
#endif

__global__ void __launch_bounds__(1024) block_bw(double* data, long long len, int peer, int iters, unsigned* counter,
                                                 int get) {
  const long long chunk = len / gridDim.x;
  double* p = data + blockIdx.x * chunk;
  for (int i = 0; i < iters; ++i) {
    if (get) nvshmemx_double_get_nbi_block(p, p, static_cast<size_t>(chunk), peer);
    else nvshmemx_double_put_nbi_block(p, p, static_cast<size_t>(chunk), peer);
    pt::grid_barrier(counter, i + 1, false);
  }
  pt::grid_barrier(counter, iters + 1, true);
}

template <typename T>
__device__ __forceinline__ void p_elem(T* d, T v, int pe);
template <>
__device__ __forceinline__ void p_elem<uint16_t>(uint16_t* d, uint16_t v, int pe) { nvshmem_uint16_p(d, v, pe); }
template <>
__device__ __forceinline__ void p_elem<uint32_t>(uint32_t* d, uint32_t v, int pe) { nvshmem_uint32_p(d, v, pe); }
template <>
__device__ __forceinline__ void p_elem<double>(double* d, double v, int pe) { nvshmem_double_p(d, v, pe); }
template <typename T>
__device__ __forceinline__ T g_elem(const T* s, int pe);
template <>
__device__ __forceinline__ uint16_t g_elem<uint16_t>(const uint16_t* s, int pe) { return nvshmem_uint16_g(s, pe); }
template <>
__device__ __forceinline__ uint32_t g_elem<uint32_t>(const uint32_t* s, int pe) { return nvshmem_uint32_g(s, pe); }
template <>
__device__ __forceinline__ double g_elem<double>(const double* s, int pe) { return nvshmem_double_g(s, pe); }

enum Mode { mode_p, mode_g, mode_st };

// One element: a p or g of the same index, or a store through the peer pointer.
template <int MODE, typename T>
__device__ __forceinline__ void elem(T* data, T* remote, long long idx, int peer) {
  if constexpr (MODE == mode_p) p_elem<T>(data + idx, data[idx], peer);
  else if constexpr (MODE == mode_g) data[idx] = g_elem<T>(data + idx, peer);
  else remote[idx] = data[idx];
}

template <int MODE, typename T>
__global__ void __launch_bounds__(1024) elem_bw(T* data, T* remote, long long len, int peer, int iters, int stride,
                                                unsigned* counter) {
  const long long nthreads = static_cast<long long>(gridDim.x) * blockDim.x;
  const long long tid = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long slice = 2 * nthreads * stride;
  const int rounds = iters * stride;
  for (int i = 0; i < rounds; ++i) {
    long long j = 0;
    for (; j < len - slice; j += slice) {
#pragma unroll
      for (int u = 0; u < 2; ++u) elem<MODE, T>(data, remote, j + u * nthreads + tid * stride, peer);
      __syncthreads();
    }
#pragma unroll
    for (int u = 0; u < 2; ++u) {
      const long long idx = j + u * nthreads + tid * stride;
      if (idx < len) elem<MODE, T>(data, remote, idx, peer);
    }
    pt::grid_barrier(counter, i + 1, false);
  }
  pt::grid_barrier(counter, rounds + 1, MODE != mode_g);
}

static int type_bytes(const std::string& d) {
  if (d == "fp16" || d == "half" || d == "bf16" || d == "bfloat16") return 2;
  if (d == "int" || d == "uint" || d == "int32" || d == "uint32" || d.find("float") != std::string::npos) return 4;
  if (d == "long" || d == "longlong" || d == "ulonglong" || d == "size" || d == "ptrdiff" || d == "double" ||
      d == "int64" || d == "uint64")
    return 8;
  return 0;
}

int main(int argc, char** argv) {
  const pt::Args a = pt::parse(argc, argv, kProg.c_str());
  const bool block_prog = kProg == "shmem_put_bw" || kProg == "shmem_get_bw";
  const int mode = kProg == "shmem_p_bw" ? mode_p : kProg == "shmem_g_bw" ? mode_g : mode_st;
  const int tb = block_prog || mode == mode_st ? 8 : type_bytes(a.datatype);
  if (tb == 0) {
    fprintf(stderr, "%s: -d: unsupported datatype '%s'\n", kProg.c_str(), a.datatype.c_str());
    return 2;
  }
  if (a.bidir && !block_prog) {
    fprintf(stderr, "%s: --bidir applies to shmem_put_bw and shmem_get_bw only\n", kProg.c_str());
    return 2;
  }
  pt::init(kProg.c_str());
  const int me = nvshmem_my_pe();
  int rc = 0;
  if (!pt::require_two_pes(kProg.c_str())) {
    rc = 1;
  } else {
    char* data = static_cast<char*>(nvshmem_malloc(a.max_size));
    double* sum = static_cast<double*>(nvshmem_malloc(2 * sizeof(double)));
    pt::check(cudaMemset(data, 0, a.max_size), "cudaMemset");
    void* remote = mode == mode_st && !block_prog ? nvshmem_ptr(data, 1 - me) : nullptr;
    unsigned* counter;
    pt::check(cudaMalloc(&counter, 2 * sizeof(unsigned)), "cudaMalloc");
    nvshmem_barrier_all();
    if (mode == mode_st && !block_prog && !remote) {
      if (me == 0) fprintf(stderr, "%s: peer memory not accessible for LD/ST (nvshmem_ptr is NULL)\n", kProg.c_str());
      rc = 1;
    } else {
      const bool active = me == 0 || a.bidir;
      const int peer = 1 - me;
      pt::Timer timer;
      std::string job = kProg;
      if (block_prog) job += a.bidir ? "_bidi" : "_uni";
      pt::Table table{job, "None", "BW", "GB/sec", '+', {}, {}};
      for (size_t size : pt::sizes(a)) {
        const long long len = static_cast<long long>(size / tb);
        auto launch = [&](int iters) {
          if (block_prog) {
            block_bw<<<a.ctas, a.threads>>>(reinterpret_cast<double*>(data), len, peer, iters, counter,
                                            kProg == "shmem_get_bw");
            return;
          }
#define ELEM_LAUNCH(M, T)                                                                                   \
  elem_bw<M, T><<<a.ctas, a.threads>>>(reinterpret_cast<T*>(data), static_cast<T*>(remote), len, peer, iters, \
                                       a.stride, counter)
          if (mode == mode_st) ELEM_LAUNCH(mode_st, double);
          else if (mode == mode_p && tb == 2) ELEM_LAUNCH(mode_p, uint16_t);
          else if (mode == mode_p && tb == 4) ELEM_LAUNCH(mode_p, uint32_t);
          else if (mode == mode_p) ELEM_LAUNCH(mode_p, double);
          else if (tb == 2) ELEM_LAUNCH(mode_g, uint16_t);
          else if (tb == 4) ELEM_LAUNCH(mode_g, uint32_t);
          else ELEM_LAUNCH(mode_g, double);
#undef ELEM_LAUNCH
        };
        double bw = 0;
        if (active) {
          pt::check(cudaMemset(counter, 0, 2 * sizeof(unsigned)), "cudaMemset");
          launch(a.warmup);
          pt::check(cudaDeviceSynchronize(), "warm-up kernel");
          pt::check(cudaMemset(counter, 0, 2 * sizeof(unsigned)), "cudaMemset");
          const float ms = timer.time(0, [&] { launch(a.iters); });
          bw = pt::bandwidth_gbs(size, ms, a.iters);
        }
        nvshmem_barrier_all();
        if (a.bidir) {  // the sum of both PEs' own figures
          pt::check(cudaMemcpy(sum, &bw, sizeof bw, cudaMemcpyHostToDevice), "cudaMemcpy");
          nvshmem_double_sum_reduce(NVSHMEM_TEAM_WORLD, sum + 1, sum, 1);
          pt::check(cudaMemcpy(&bw, sum + 1, sizeof bw, cudaMemcpyDeviceToHost), "cudaMemcpy");
        }
        if (me == 0) table.add(size, bw);
      }
      if (me == 0) table.print(a, kProg.c_str());
    }
    cudaFree(counter);
    nvshmem_free(sum);
    nvshmem_free(data);
  }
  nvshmem_finalize();
  return rc;
}
