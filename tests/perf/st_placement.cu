// shmem_st_placement: the shmem_st_bw program's kernel in raw CUDA (no SHMEM), run on buffers placed
// at a range of offsets, to show how much of st_bw's figure is the buffers' placement in GPU memory.
// One process, GPU 0 stores into GPU 1 over peer access. Each GPU gets one cudaMalloc of
// size + max offset; for every offset (0, step, 2 step, ... max) the kernel reads `size` bytes of
// GPU 0's buffer from that offset and stores them at the same offset of GPU 1's, as st_bw does with
// a symmetric buffer: <<<-c, -t>>> (default 4 x 1024, the runner's st_bw options), 8-byte
// elements, two per thread per slice of 2 x threads,
// __syncthreads after each slice, a grid barrier after each iteration; one warm-up launch of -w
// iterations, then one timed launch of -n (CUDA events); bandwidth = size * iters / (ms * 10^6).
// Prints CSV rows (impl "floor", metric st_bw_offset_<MiB>M) and, per size, the lowest, median and
// highest figure over the offsets. Offsets are whole MiB (-o and -s multiples of 1M).
// Usage: shmem_st_placement [-b size] [-e size] [-o max offset] [-s step] [-n iters] [-w warm-up]
//        [-c blocks] [-t threads]   (sizes take K/M/G; defaults 32M, 32M, 62M, 2M, 10, 10, 4, 1024)
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

int main(int argc, char** argv) {
  size_t min_size = 32u << 20, max_size = 32u << 20, max_off = 62u << 20, step = 2u << 20;
  int iters = 10, warmup = 10, blocks = 4, threads = 1024;
  for (int i = 1; i + 1 < argc; i += 2) {
    const char* o = argv[i];
    const char* v = argv[i + 1];
    bool ok = true;
    if (!strcmp(o, "-b")) ok = perf::parse_scaled(v, &min_size);
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
  if ((argc - 1) % 2 || min_size < 8 || max_size < min_size || step == 0 || step % mib || max_off % mib || iters < 1 ||
      warmup < 0 || blocks < 1 || threads < 1 || threads > 1024) {
    fprintf(stderr,
            "shmem_st_placement: bad arguments (sizes >= 8 B with K/M/G, -b <= -e, -o and -s whole MiB, -s > 0, "
            "-n >= 1, 1 <= -t <= 1024)\n");
    return 2;
  }
  int ngpu = 0, access = 0;
  if (cudaGetDeviceCount(&ngpu) != cudaSuccess || ngpu < 2) {
    fprintf(stderr, "shmem_st_placement: needs 2 GPUs (found %d)\n", ngpu);
    return 77;
  }
  CK(cudaDeviceCanAccessPeer(&access, 0, 1));
  if (!access) {
    fprintf(stderr, "shmem_st_placement: GPU 0 cannot access GPU 1's memory\n");
    return 77;
  }
  const size_t bytes = max_size + max_off;
  double* remote = nullptr;
  double* data = nullptr;
  unsigned* counter = nullptr;
  CK(cudaSetDevice(1));
  CK(cudaMalloc(&remote, bytes));
  CK(cudaMemset(remote, 0, bytes));
  CK(cudaDeviceSynchronize());
  CK(cudaSetDevice(0));
  CK(cudaDeviceEnablePeerAccess(1, 0));
  CK(cudaMalloc(&data, bytes));
  CK(cudaMemset(data, 0, bytes));
  CK(cudaMalloc(&counter, 2 * sizeof(unsigned)));
  cudaEvent_t start, stop;
  CK(cudaEventCreate(&start));
  CK(cudaEventCreate(&stop));
  printf("impl,suite,npes,size,metric,value,unit\n");
  for (size_t size = min_size; size <= max_size; size *= 2) {
    const long long len = static_cast<long long>(size / 8);
    std::vector<double> all;
    for (size_t off = 0; off <= max_off; off += step) {
      const double* d = data + off / 8;
      double* r = remote + off / 8;
      CK(cudaMemset(counter, 0, 2 * sizeof(unsigned)));
      st_loop<<<blocks, threads>>>(d, r, len, warmup, counter);
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      CK(cudaMemset(counter, 0, 2 * sizeof(unsigned)));
      CK(cudaEventRecord(start));
      st_loop<<<blocks, threads>>>(d, r, len, iters, counter);
      CK(cudaEventRecord(stop));
      CK(cudaEventSynchronize(stop));
      float ms = 0;
      CK(cudaEventElapsedTime(&ms, start, stop));
      const double gbs = static_cast<double>(size) * iters / (static_cast<double>(ms) * 1e6);
      all.push_back(gbs);
      printf("floor,st_placement,1,%zu,st_bw_offset_%zuM,%.3f,GB/s\n", size, off >> 20, gbs);
    }
    std::sort(all.begin(), all.end());
    printf("floor,st_placement,1,%zu,st_bw_offsets_min,%.3f,GB/s\n", size, all.front());
    printf("floor,st_placement,1,%zu,st_bw_offsets_median,%.3f,GB/s\n", size, all[all.size() / 2]);
    printf("floor,st_placement,1,%zu,st_bw_offsets_max,%.3f,GB/s\n", size, all.back());
    if (size > max_size / 2) break;  // no overflow of size *= 2
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaFree(counter);
  cudaFree(data);
  CK(cudaSetDevice(1));
  cudaFree(remote);
  return 0;
}
