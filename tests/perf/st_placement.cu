// shmem_st_placement: the shmem_st_bw and shmem_put_bw programs' kernels in raw CUDA (no SHMEM), run
// on buffers placed at a range of offsets, to show how much of those programs' figures is the
// buffers' placement in GPU memory. One process, GPU 0 stores into GPU 1 over peer access. Each GPU
// gets one cudaMalloc of size + max offset; for every offset (0, step, 2 step, ... max) the kernel
// reads `size` bytes of GPU 0's buffer from that offset and stores them at the same offset of GPU
// 1's, as the programs do with a symmetric buffer, <<<-c, -t>>> (default 4 x 1024, their options):
//   -k st (default)  st_bw's loop: 8-byte elements, two per thread per slice of 2 x threads,
//                    __syncthreads after each slice, a grid barrier after each iteration
//   -k put           put_bw's: block b copies the b-th of -c equal shares with the block put's loop
//                    (one 16-byte word per thread per step, as both libraries' block put of a local
//                    source compiles: one LDG.128 and one ST.128), a grid barrier after each iteration
//   -d               both ways at once (put_bw --bidir): GPU 1 runs the same kernel from its buffer
//                    into GPU 0's at the same offset; the figure is the sum of the two GPUs'
// One warm-up launch of -w iterations, then one timed launch of -n (CUDA events, per GPU);
// bandwidth = size * iters / (ms * 10^6). Prints CSV rows (impl "floor", metric
// <kernel>[_bidir]_offset_<MiB>M) and, per size, the lowest, median and highest figure over the
// offsets. Offsets are whole MiB (-o and -s multiples of 1M).
// Usage: shmem_st_placement [-k st|put] [-d] [-b size] [-e size] [-o max offset] [-s step] [-n iters]
//        [-w warm-up] [-c blocks] [-t threads]   (sizes take K/M/G; defaults 32M, 32M, 62M, 2M, 10,
//        10, 4, 1024)
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "perf_common.hpp"

#define CK(x)                                                                   \
  do {                                                                          \
    cudaError_t e_ = (x);                                                       \
    if (e_ != cudaSuccess) {                                                    \
      fprintf(stderr, "shmem_st_placement: %s: %s\n", #x, cudaGetErrorString(e_)); \
      return 1;                                                                 \
    }                                                                           \
  } while (0)

// st_bw's grid barrier: every block's thread 0 counts in; the last one releases the others.
__device__ __forceinline__ void grid_barrier(unsigned* counter, unsigned e) {
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    const unsigned old = atomicInc(counter, UINT_MAX);
    if (old == gridDim.x * e - 1) atomicAdd(counter + 1, 1u);
    while (*reinterpret_cast<volatile unsigned*>(counter + 1) != e) {
    }
  }
  __syncthreads();
}

// st_bw's loop (tests/perf/perftest/pt2pt_bw.cu, elem_bw in mode st): remote[idx] = data[idx].
__global__ void __launch_bounds__(1024) st_loop(const double* data, double* remote, long long len, int iters,
                                                unsigned* counter) {
  const long long nthreads = static_cast<long long>(gridDim.x) * blockDim.x;
  const long long tid = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long slice = 2 * nthreads;
  for (int i = 0; i < iters; ++i) {
    long long j = 0;
    for (; j < len - slice; j += slice) {
#pragma unroll
      for (int u = 0; u < 2; ++u) remote[j + u * nthreads + tid] = data[j + u * nthreads + tid];
      __syncthreads();
    }
#pragma unroll
    for (int u = 0; u < 2; ++u) {
      const long long idx = j + u * nthreads + tid;
      if (idx < len) remote[idx] = data[idx];
    }
    grid_barrier(counter, i + 1);
  }
  grid_barrier(counter, iters + 1);
  if (threadIdx.x == 0) __threadfence_system();
}

// put_bw's loop (NVSHMEM's shmem_put_bw: nvshmemx_double_put_nbi_block of the block's share, then
// a grid barrier): each block copies nv 16-byte words from its share.
__global__ void __launch_bounds__(1024) put_loop(const uint4* data, uint4* remote, long long nv, int iters,
                                                 unsigned* counter) {
  const uint4* __restrict__ s = data + blockIdx.x * nv;
  uint4* __restrict__ d = remote + blockIdx.x * nv;
  for (int i = 0; i < iters; ++i) {
    for (long long k = threadIdx.x; k < nv; k += blockDim.x) d[k] = s[k];
    grid_barrier(counter, i + 1);
  }
  grid_barrier(counter, iters + 1);
  if (threadIdx.x == 0) __threadfence_system();
}

// One GPU's direction: its buffer, the peer's, and the stream and events that time it.
struct Side {
  int dev;
  const char* src;
  char* dst;
  unsigned* counter;
  cudaStream_t stream;
  cudaEvent_t start, stop;
};

static bool launch(bool put, const Side& s, size_t size, int blocks, int threads, int iters) {
  if (cudaSetDevice(s.dev) != cudaSuccess || cudaMemsetAsync(s.counter, 0, 2 * sizeof(unsigned), s.stream) != cudaSuccess)
    return false;
  if (put)
    put_loop<<<blocks, threads, 0, s.stream>>>(reinterpret_cast<const uint4*>(s.src), reinterpret_cast<uint4*>(s.dst),
                                                static_cast<long long>(size / 16 / blocks), iters, s.counter);
  else
    st_loop<<<blocks, threads, 0, s.stream>>>(reinterpret_cast<const double*>(s.src), reinterpret_cast<double*>(s.dst),
                                               static_cast<long long>(size / 8), iters, s.counter);
  return cudaGetLastError() == cudaSuccess;
}

// One timed figure for one offset: a warm-up launch, then the timed launch, on GPU 0 (and GPU 1 the
// other way when both): GB/s, the sum of the GPUs' figures; -1 after an error (reported).
static double timed(bool put, Side* sides, int nsides, size_t size, int blocks, int threads, int warmup, int iters) {
  for (int k = 0; k < nsides; ++k)
    if (!launch(put, sides[k], size, blocks, threads, warmup)) return -1;
  for (int k = 0; k < nsides; ++k)
    if (cudaSetDevice(sides[k].dev) != cudaSuccess || cudaStreamSynchronize(sides[k].stream) != cudaSuccess) return -1;
  for (int k = 0; k < nsides; ++k) {
    if (cudaSetDevice(sides[k].dev) != cudaSuccess || cudaEventRecord(sides[k].start, sides[k].stream) != cudaSuccess ||
        !launch(put, sides[k], size, blocks, threads, iters) || cudaEventRecord(sides[k].stop, sides[k].stream) != cudaSuccess)
      return -1;
  }
  double gbs = 0;
  for (int k = 0; k < nsides; ++k) {
    float ms = 0;
    if (cudaEventSynchronize(sides[k].stop) != cudaSuccess ||
        cudaEventElapsedTime(&ms, sides[k].start, sides[k].stop) != cudaSuccess)
      return -1;
    // put_bw counts what its blocks' shares cover
    const double moved = put ? static_cast<double>(size / 16 / blocks * 16 * blocks) : static_cast<double>(size);
    gbs += moved * iters / (static_cast<double>(ms) * 1e6);
  }
  return gbs;
}

int main(int argc, char** argv) {
  size_t min_size = 32u << 20, max_size = 32u << 20, max_off = 62u << 20, step = 2u << 20;
  int iters = 10, warmup = 10, blocks = 4, threads = 1024;
  bool put = false, both = false;
  for (int i = 1; i < argc; ++i) {
    const char* o = argv[i];
    if (!strcmp(o, "-d")) {
      both = true;
      continue;
    }
    const char* v = i + 1 < argc ? argv[++i] : "";
    bool ok = true;
    if (!strcmp(o, "-k")) ok = (put = !strcmp(v, "put")) || !strcmp(v, "st");
    else if (!strcmp(o, "-b")) ok = perf::parse_scaled(v, &min_size);
    else if (!strcmp(o, "-e")) ok = perf::parse_scaled(v, &max_size);
    else if (!strcmp(o, "-o")) ok = perf::parse_scaled(v, &max_off);
    else if (!strcmp(o, "-s")) ok = perf::parse_scaled(v, &step);
    else if (!strcmp(o, "-n")) iters = atoi(v);
    else if (!strcmp(o, "-w")) warmup = atoi(v);
    else if (!strcmp(o, "-c")) blocks = atoi(v);
    else if (!strcmp(o, "-t")) threads = atoi(v);
    else ok = false;
    if (!ok) {
      fprintf(stderr, "shmem_st_placement: bad option or value: %s %s\n", o, v);
      return 2;
    }
  }
  const size_t mib = size_t{1} << 20;
  if (min_size < 8 || max_size < min_size || step == 0 || step % mib || max_off % mib || iters < 1 || warmup < 0 ||
      blocks < 1 || threads < 1 || threads > 1024 || (put && min_size < 16 * static_cast<size_t>(blocks))) {
    fprintf(stderr,
            "shmem_st_placement: bad arguments (sizes >= 8 B with K/M/G, -b <= -e, -o and -s whole MiB, -s > 0, "
            "-n >= 1, 1 <= -t <= 1024; -k put: sizes of at least 16 bytes a block)\n");
    return 2;
  }
  int ngpu = 0, access = 0, back = 0;
  if (cudaGetDeviceCount(&ngpu) != cudaSuccess || ngpu < 2) {
    fprintf(stderr, "shmem_st_placement: needs 2 GPUs (found %d)\n", ngpu);
    return 77;
  }
  CK(cudaDeviceCanAccessPeer(&access, 0, 1));
  CK(cudaDeviceCanAccessPeer(&back, 1, 0));
  if (!access || (both && !back)) {
    fprintf(stderr, "shmem_st_placement: GPUs 0 and 1 cannot access each other's memory\n");
    return 77;
  }
  const size_t bytes = max_size + max_off;
  char* buf[2] = {nullptr, nullptr};
  Side sides[2] = {};
  for (int dev = 0; dev < 2; ++dev) {
    Side& s = sides[dev];
    s.dev = dev;
    CK(cudaSetDevice(dev));
    CK(cudaDeviceEnablePeerAccess(1 - dev, 0));
    CK(cudaMalloc(&buf[dev], bytes));
    CK(cudaMemset(buf[dev], dev + 1, bytes));
    CK(cudaMalloc(&s.counter, 2 * sizeof(unsigned)));
    CK(cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking));
    CK(cudaEventCreate(&s.start));
    CK(cudaEventCreate(&s.stop));
    CK(cudaDeviceSynchronize());
  }
  const char* kernel = put ? (both ? "put_bw_bidir" : "put_bw") : (both ? "st_bw_bidir" : "st_bw");
  printf("impl,suite,npes,size,metric,value,unit\n");
  for (size_t size = min_size; size <= max_size; size *= 2) {
    std::vector<double> all;
    for (size_t off = 0; off <= max_off; off += step) {
      sides[0].src = buf[0] + off;
      sides[0].dst = buf[1] + off;
      sides[1].src = buf[1] + off;
      sides[1].dst = buf[0] + off;
      const double gbs = timed(put, sides, both ? 2 : 1, size, blocks, threads, warmup, iters);
      if (gbs < 0) {
        fprintf(stderr, "shmem_st_placement: %s at offset %zu: %s\n", kernel, off, cudaGetErrorString(cudaGetLastError()));
        return 1;
      }
      all.push_back(gbs);
      printf("floor,st_placement,%d,%zu,%s_offset_%zuM,%.3f,GB/s\n", both ? 2 : 1, size, kernel, off >> 20, gbs);
    }
    std::sort(all.begin(), all.end());
    printf("floor,st_placement,%d,%zu,%s_offsets_min,%.3f,GB/s\n", both ? 2 : 1, size, kernel, all.front());
    printf("floor,st_placement,%d,%zu,%s_offsets_median,%.3f,GB/s\n", both ? 2 : 1, size, kernel, all[all.size() / 2]);
    printf("floor,st_placement,%d,%zu,%s_offsets_max,%.3f,GB/s\n", both ? 2 : 1, size, kernel, all.back());
    if (size > max_size / 2) break;  // no overflow of size *= 2
  }
  for (int dev = 0; dev < 2; ++dev) {
    cudaSetDevice(dev);
    cudaEventDestroy(sides[dev].start);
    cudaEventDestroy(sides[dev].stop);
    cudaStreamDestroy(sides[dev].stream);
    cudaFree(sides[dev].counter);
    cudaFree(buf[dev]);
  }
  return 0;
}
