// Hardware floors on one host, in raw CUDA (no SHMEM): what the perf suites are measured against.
// One process, GPUs 0 and 1 with peer access. Prints CSV rows (impl "floor") the runner merges:
//   store_ping_pong   round trip of a flag stored into the other GPU's memory and echoed back
//   remote_load_<flavor>_rt   one thread chasing pointers through the other GPU's memory, 64 KiB
//                     apart (g_latency's addressing): the round trip of one remote load, for weak,
//                     .cg, volatile, relaxed.sys and acquire.sys loads (the floor of g and get)
//   remote_load_g_*_suite_shape, remote_get_suite_shape[_vmm]   the g_latency / get_latency
//                     suites' thread loop with the raw access in place of the call (pipelined:
//                     independent loads the compiler batches; plain: one round trip per g; _vmm:
//                     in cuMemCreate memory, as a heap)
//   sm_store_bw       one GPU's SMs storing into the other's memory (16-byte stores), and both ways
//   sm_store_bw_put_bw_shape   the same in the put_bw suite's shape: 132 x 1024 threads, 20
//                     repetitions of a 1 MiB / 16 MiB / 256 MiB transfer, one fence at the end
//   copy_engine_bw    cudaMemcpyPeerAsync, one way and both ways
//   fifo_round_trip   GPU writes a request into pinned host memory, a host thread answers into
//                     device-visible memory, the GPU sees the answer (the proxy path's floor)
//   store_<order>_ping_pong_rt   8 data bytes and then the flag, ordered by <order> (fence_sys:
//                     fence.acq_rel.sys between them, as shmem_fence; release_sys: the flag stored
//                     with st.release.sys, as put_signal; sc_sys: fence.sc.sys; none: no ordering,
//                     incorrect, for the cost of the second store alone): what ordering costs;
//   store_release_sys_cold_ping_pong_rt   release_sys with the put_signal suite's addressing: the
//                     data loaded from a new slot of a 256 MiB source each time and stored 64 KiB
//                     further on in the peer's buffer (the floor of put_signal_ping_pong at 8 B)
//   memop_signal_ping_pong_rt   each GPU asks its own host thread (pinned request word) to write the
//                     other GPU's flag with a stream write-value operation: the floor of a
//                     signal ping-pong through two proxies that use the GPU's stream engine
//   ce_put_signal_ping_pong_rt  the same with an 8-byte cudaMemcpyAsync before the write (the
//                     copy engine carries the data): the floor of a proxied put_signal ping-pong
//   block_put_quiet_<src>   one block of 1024 threads stores <size> bytes into the other GPU
//                     (16-byte words, four loads in flight per thread), then the block waits for
//                     them (bar.sync, fence.sc.sys by one thread, bar.sync, as block put + quiet),
//                     per repetition; src cold: each repetition reads a new slice of 256 MiB (as
//                     the put_latency suite), warm: the same slice (in L2), none: stores a register
//                     value (no load): what one block's put + quiet can reach, and what the load of
//                     the source costs; _vmm_: both buffers made as a SHMEM heap is (cuMemCreate)
//   host_copy_sync_latency, host_copy_async_bw   one host thread's driver copies into the other GPU:
//                     the floor of the host latency / bw programs (host_copy_floors)
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <atomic>
#include <cstdio>
#include <thread>
#include <vector>

#define CK(x)                                                                        \
  do {                                                                               \
    cudaError_t e_ = (x);                                                            \
    if (e_ != cudaSuccess) {                                                         \
      fprintf(stderr, "floors: %s: %s\n", #x, cudaGetErrorString(e_));               \
      return 1;                                                                      \
    }                                                                                \
  } while (0)

__device__ __forceinline__ unsigned long long now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// side 0 starts: stores i into the peer's flag, waits for i in its own; side 1 echoes.
__global__ void ping(volatile unsigned long long* mine, volatile unsigned long long* theirs, int side, int iters,
                     unsigned long long* ns) {
  unsigned long long t0 = 0;
  for (int i = 1; i <= iters; ++i) {
    if (i == 11) t0 = now();  // 10 warm-up rounds
    if (side == 0) {
      *theirs = i;
      while (*mine != static_cast<unsigned long long>(i)) {
      }
    } else {
      while (*mine != static_cast<unsigned long long>(i)) {
      }
      *theirs = i;
    }
  }
  if (side == 0) *ns = (now() - t0) / (iters - 10);
}

// As ping, with 8 data bytes stored before the flag under an ordering mode; the receiver reads
// the data after it saw the flag (and counts wrong values). order_release_cold: as release_sys,
// but repetition i loads its data from a new 8-byte slot of a 256 MiB source and stores it to the
// same slot of the peer's 256 MiB buffer, 64 KiB further on each time (the put_signal suite's
// addressing): the load from DRAM and the store to a cold line are on the path, as they are for
// put_signal in the suite.
enum Order { order_none, order_fence_sys, order_release_sys, order_sc_sys, order_release_cold };
constexpr size_t kColdSlots = (size_t(256) << 20) / 8, kColdStep = (size_t(64) << 10) / 8;
__device__ __forceinline__ unsigned long long cold_pattern(size_t slot) { return slot * 0x9E3779B97F4A7C15ull; }
__global__ void fill_cold(unsigned long long* src) {
  for (size_t k = blockIdx.x * blockDim.x + threadIdx.x; k < kColdSlots; k += gridDim.x * blockDim.x)
    src[k] = cold_pattern(k);
}
// Cold is a template parameter so that the other orderings run the original kernel: with the cold
// addressing as runtime branches in the same body, every ordering measured 0.23-0.26 us slower
// (2026-11-22: none 1.91 against 1.68 us, release_sys 3.67 against 3.42, store_ping_pong_rt
// unchanged at 1.24).
template <bool Cold>
__global__ void ping_data(unsigned long long* mine, unsigned long long* theirs, unsigned long long* my_data,
                          unsigned long long* their_data, const unsigned long long* my_src, int side, int iters,
                          int order, unsigned long long* ns, unsigned long long* bad) {
  unsigned long long t0 = 0;
  auto send = [&](unsigned long long i) {
    if constexpr (Cold) {
      const size_t k = i * kColdStep % kColdSlots;
      *reinterpret_cast<volatile unsigned long long*>(their_data + k) = my_src[k] + i;
      asm volatile("st.release.sys.global.u64 [%0], %1;" ::"l"(theirs), "l"(i) : "memory");
      return;
    }
    *reinterpret_cast<volatile unsigned long long*>(their_data) = i * 3;
    switch (order) {
      case order_fence_sys: asm volatile("fence.acq_rel.sys;" ::: "memory"); break;
      case order_sc_sys: asm volatile("fence.sc.sys;" ::: "memory"); break;
      default: break;
    }
    if (order == order_release_sys) asm volatile("st.release.sys.global.u64 [%0], %1;" ::"l"(theirs), "l"(i) : "memory");
    else asm volatile("st.relaxed.sys.global.u64 [%0], %1;" ::"l"(theirs), "l"(i) : "memory");
  };
  auto recv = [&](unsigned long long i) {
    unsigned long long v;
    do asm volatile("ld.acquire.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(mine) : "memory");
    while (v != i);
    if constexpr (Cold) {
      const size_t k = i * kColdStep % kColdSlots;
      if (*reinterpret_cast<volatile unsigned long long*>(my_data + k) != cold_pattern(k) + i) ++*bad;
    } else {
      if (*reinterpret_cast<volatile unsigned long long*>(my_data) != i * 3) ++*bad;
    }
  };
  for (int i = 1; i <= iters; ++i) {
    if (i == 11) t0 = now();
    if (side == 0) {
      send(i);
      recv(i);
    } else {
      recv(i);
      send(i);
    }
  }
  if (side == 0) *ns = (now() - t0) / (iters - 10);
}

// GPU side of the proxied ping-pongs: ask the own host thread (req, pinned), wait for the flag
// in own GPU memory that the other side's host thread writes.
// Side 0 finishes last and then stops both host threads (other_req: side 1's request word).
__global__ void proxied_ping(volatile unsigned long long* req, volatile unsigned long long* flag, int side, int iters,
                             unsigned long long* ns, volatile unsigned long long* other_req) {
  unsigned long long t0 = 0;
  for (int i = 1; i <= iters; ++i) {
    if (i == 11) t0 = now();
    if (side == 0) {
      *req = i;
      while (*flag != static_cast<unsigned long long>(i)) {
      }
    } else {
      while (*flag != static_cast<unsigned long long>(i)) {
      }
      *req = i;
    }
  }
  if (side == 0) {
    *ns = (now() - t0) / (iters - 10);
    *req = ~0ull;
    *other_req = ~0ull;
  }
}

__global__ void store_bw(uint4* dst, const uint4* src, size_t n) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) dst[i] = src[i];
}

// One block copies nv 16-byte words: four loads in flight per thread, then the rest one by one
// (the loop of gshmem's gets and thread/warp puts; its block put leaves the schedule to the
// compiler, which measured faster for shmem_put_bw: docs/perf/h200x2-perftest.md).
__device__ __forceinline__ void block_copy(uint4* d, const uint4* s, size_t nv) {
  const unsigned w = blockDim.x;
  size_t i = threadIdx.x;
  for (; i + 3 * w < nv; i += 4 * w) {
    const uint4 a = s[i], b = s[i + w], c = s[i + 2 * w], e = s[i + 3 * w];
    d[i] = a;
    d[i + w] = b;
    d[i + 2 * w] = c;
    d[i + 3 * w] = e;
  }
  for (; i < nv; i += w) d[i] = s[i];
}

// The put_bw suite's shape in raw CUDA: 132 blocks x 1024 threads, each block copies its
// bytes/132 share of one size-byte slice per repetition (slices of region in turn, 16-byte words,
// four loads in flight per thread), one fence.sc.sys per block at the end.
__global__ void store_reps(uint4* dst, const uint4* src, size_t bytes, size_t region, int reps) {
  const size_t chunk = bytes / gridDim.x / 16 * 16, nv = chunk / 16, slices = region / bytes;
  for (int r = 0; r < reps; ++r) {
    const size_t base = ((static_cast<size_t>(r) % slices) * bytes + blockIdx.x * chunk) / 16;
    block_copy(dst + base, src + base, nv);
  }
  __syncthreads();
  if (threadIdx.x == 0) asm volatile("fence.sc.sys;" ::: "memory");
}

enum BlockSrc { src_cold, src_warm, src_none };
__global__ void block_put_quiet(uint4* dst, const uint4* src, size_t bytes, size_t region, int mode, int iters,
                                unsigned long long* ns) {
  const size_t stride = 64 << 10, nv = bytes / 16;
  unsigned long long t0 = 0;
  for (int it = 0; it < iters + 100; ++it) {  // 100 warm-up repetitions
    if (it == 100) t0 = now();
    const size_t off = mode == src_warm ? 0 : (static_cast<size_t>(it) * stride) % (region - bytes + 1) / 64 * 64 / 16;
    if (mode == src_none) {
      const uint4 v = make_uint4(it, it, it, it);
      for (size_t i = threadIdx.x; i < nv; i += blockDim.x) dst[off + i] = v;
    } else {
      block_copy(dst + off, src + off, nv);
    }
    __syncthreads();
    if (threadIdx.x == 0) asm volatile("fence.sc.sys;" ::: "memory");
    __syncthreads();
  }
  if (threadIdx.x == 0) *ns = (now() - t0) / iters;
}

__global__ void fifo(volatile unsigned long long* req, volatile unsigned long long* resp, int iters,
                     unsigned long long* ns) {
  unsigned long long t0 = 0;
  for (int i = 1; i <= iters; ++i) {
    if (i == 11) t0 = now();
    *req = i;
    __threadfence_system();
    while (*resp != static_cast<unsigned long long>(i)) {
    }
  }
  *ns = (now() - t0) / (iters - 10);
  *req = ~0ull;  // tells the host thread to stop
}

// bytes of device dev's memory the way a SHMEM heap is made (cuMemCreate + cuMemMap, read/write
// for GPUs 0 and 1), through the driver entry points (the binary does not link libcuda).
// Remote load round trip: one thread of GPU 0 chases pointers through GPU 1's memory, 8 bytes
// per hop, each hop 64 KiB further on in 256 MiB (the g_latency suite's addressing), so every load
// waits for the one before and none hits a cache. flavor: 0 weak ld.global (what NVSHMEM's g
// emits), 1 ld.global.cg (L2 only), 2 ld.volatile (gshmem's g), 3 ld.relaxed.sys, 4 ld.acquire.sys.
constexpr size_t kChaseSlots = (size_t(256) << 20) / 8, kChaseStep = (size_t(64) << 10) / 8;
__global__ void chase_init(unsigned long long* p) {
  for (size_t k = blockIdx.x * blockDim.x + threadIdx.x; k < kChaseSlots; k += gridDim.x * blockDim.x)
    p[k] = (k + kChaseStep) % kChaseSlots;
}
__device__ __forceinline__ unsigned long long chase_load(const unsigned long long* a, int flavor) {
  unsigned long long v;
  switch (flavor) {
    case 0: asm volatile("ld.global.u64 %0, [%1];" : "=l"(v) : "l"(a) : "memory"); break;
    case 1: asm volatile("ld.global.cg.u64 %0, [%1];" : "=l"(v) : "l"(a) : "memory"); break;
    case 2: asm volatile("ld.volatile.global.u64 %0, [%1];" : "=l"(v) : "l"(a) : "memory"); break;
    case 3: asm volatile("ld.relaxed.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(a) : "memory"); break;
    default: asm volatile("ld.acquire.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(a) : "memory"); break;
  }
  return v;
}
__global__ void chase(const unsigned long long* remote, int flavor, int iters, unsigned long long* ns,
                      unsigned long long* sink) {
  unsigned long long k = 0, t0 = 0;
  for (int i = 0; i < iters; ++i) {
    if (i == 100) t0 = now();
    k = chase_load(remote + k, flavor);
  }
  *ns = (now() - t0) / (iters - 100);
  *sink = k;
}

// The thread-scope loop of the g_latency / get_latency suites, with the SHMEM call replaced by
// the raw access: 8 bytes at a new offset of a 256 MiB region each iteration (64 KiB apart, the
// offset computed as the suite computes it). Shape 0: g with a weak load, 1: g with a volatile
// load; in both the loads are independent, and the compiler issues several before their values
// are used (a throughput, not a round trip). 2: g with a volatile load whose value the next
// iteration's address depends on (through a zero the compiler cannot see), as gshmem's and NVSHMEM's g are
// serialized by the checks and branches between them: one round trip per g. 3: 8-byte get (weak
// load, local store, __syncthreads, as gshmem's and NVSHMEM's getmem). What the suite's loop costs
// on top of a load round trip.
template <int Shape>
__global__ void suite_load(const char* remote, char* local, size_t region, size_t stride, int warmup, int iters,
                           unsigned long long zero, unsigned long long* ns, unsigned long long* sink_out) {
  constexpr size_t bytes = 8;  // region and stride are run-time values, as in the suite
  unsigned long long t0 = 0, sink = 0, dep = 0;
  for (int i = -warmup; i < iters; ++i) {
    if (i == 0) t0 = now();
    const size_t off = (static_cast<size_t>(i + warmup) * stride) % (region - bytes + 1) / 64 * 64 + dep;
    const auto* src = reinterpret_cast<const unsigned long long*>(remote + off);
    if constexpr (Shape == 0) {
      sink += *src;
    } else if constexpr (Shape == 1) {
      sink += *reinterpret_cast<const volatile unsigned long long*>(src);
    } else if constexpr (Shape == 2) {
      const unsigned long long v = *reinterpret_cast<const volatile unsigned long long*>(src);
      sink += v;
      dep = v & zero;  // zero is 0 at run time; no compiler can fold it
    } else {
      *reinterpret_cast<unsigned long long*>(local + off) = *src;
      __syncthreads();
    }
  }
  *ns = (now() - t0) / iters;
  *sink_out = sink;
}

static void* vmm_alloc(int dev, size_t bytes) {
  auto entry = [](const char* name) {
    void* f = nullptr;
    cudaDriverEntryPointQueryResult q;
    if (cudaGetDriverEntryPointByVersion(name, &f, 12000, cudaEnableDefault, &q) != cudaSuccess) return (void*)nullptr;
    return f;
  };
  auto create = reinterpret_cast<CUresult (*)(CUmemGenericAllocationHandle*, size_t, const CUmemAllocationProp*,
                                              unsigned long long)>(entry("cuMemCreate"));
  auto reserve = reinterpret_cast<CUresult (*)(CUdeviceptr*, size_t, size_t, CUdeviceptr, unsigned long long)>(
      entry("cuMemAddressReserve"));
  auto map = reinterpret_cast<CUresult (*)(CUdeviceptr, size_t, size_t, CUmemGenericAllocationHandle,
                                           unsigned long long)>(entry("cuMemMap"));
  auto access = reinterpret_cast<CUresult (*)(CUdeviceptr, size_t, const CUmemAccessDesc*, size_t)>(
      entry("cuMemSetAccess"));
  if (!create || !reserve || !map || !access) return nullptr;
  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = dev;
  CUmemGenericAllocationHandle h;
  CUdeviceptr p = 0;
  if (create(&h, bytes, &prop, 0) != CUDA_SUCCESS || reserve(&p, bytes, 0, 0, 0) != CUDA_SUCCESS ||
      map(p, bytes, 0, h, 0) != CUDA_SUCCESS)
    return nullptr;
  CUmemAccessDesc a[2] = {};
  for (int d = 0; d < 2; ++d) {
    a[d].location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    a[d].location.id = d;
    a[d].flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  }
  return access(p, bytes, a, 2) == CUDA_SUCCESS ? reinterpret_cast<void*>(p) : nullptr;
}

static void row(const char* metric, size_t size, double value, const char* unit) {
  printf("floor,floors,2,%zu,%s,%.6f,%s,0,0,0,0,-,0\n", size, metric, value, unit);
}

// The host pt-to-pt programs' floor: what one host thread gets from the driver, GPU 0's memory
// into GPU 1's on a non-blocking stream, wall clock, the median of 7 samples per size.
//   host_copy_sync_latency  cudaMemcpyAsync + cudaStreamSynchronize per copy, 10 after 10 warm-up
//                           (latency --issue host: a blocking put is one copy and one wait), us
//   host_copy_async_bw      100 cudaMemcpyAsync, one cudaStreamSynchronize (bw --issue host with
//                           one driver copy per put), GB/s (10^9 bytes)
//   host_copy_sync_latency_stream<k>  the 8-byte latency on each of 8 further streams
//   host_kernel_sync_latency       an empty kernel (one warp) + cudaStreamSynchronize, us
//   host_copy_kernel_sync_latency  a kernel storing 8 bytes into GPU 1 + cudaStreamSynchronize, us
// (Would a host put be faster as a kernel than as a driver copy? Not on 2 x H200: docs/perf/h200x2-perftest.md.)
__global__ void host_floor_empty() {}
__global__ void host_floor_copy8(uint64_t *d, const uint64_t *s) { *d = *s; }

static int host_copy_floors() {
  const size_t max = size_t(128) << 20;
  void *a, *b;
  CK(cudaSetDevice(1));
  CK(cudaMalloc(&b, max));
  CK(cudaSetDevice(0));
  CK(cudaMalloc(&a, max));
  CK(cudaMemset(a, 1, max));
  CK(cudaDeviceSynchronize());
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  using clk = std::chrono::steady_clock;
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  for (int kind = 0; kind < 2; ++kind) {
    for (size_t sz = kind ? 4 : 1; sz <= max; sz *= 2) {
      std::vector<double> samples;
      for (int rep = 0; rep < 7; ++rep) {
        const int warm = 10, n = kind ? 100 : 10;
        clk::time_point t0;
        for (int i = 0; i < warm + n; ++i) {
          if (i == warm) {
            CK(cudaStreamSynchronize(s));
            t0 = clk::now();
          }
          CK(cudaMemcpyAsync(b, a, sz, cudaMemcpyDefault, s));
          if (!kind) CK(cudaStreamSynchronize(s));
        }
        CK(cudaStreamSynchronize(s));
        const double us = std::chrono::duration<double, std::micro>(clk::now() - t0).count();
        samples.push_back(kind ? static_cast<double>(sz) * n / (us * 1e3) : us / n);
      }
      row(kind ? "host_copy_async_bw" : "host_copy_sync_latency", sz, median(samples), kind ? "GB/s" : "us");
    }
  }
  CK(cudaStreamDestroy(s));
  // the same 8-byte latency on 8 more streams created now (does the driver's choice of copy
  // engine per stream set the latency?)
  // us per call of issue() + a synchronize of t: 10 calls after 10, the median of 7 such samples;
  // -1 after an error (reported)
  auto per_call = [&](cudaStream_t t, auto issue) -> double {
    std::vector<double> samples;
    for (int rep = 0; rep < 7; ++rep) {
      clk::time_point t0;
      for (int i = 0; i < 20; ++i) {
        if (i == 10) t0 = clk::now();
        cudaError_t e = issue();
        if (e == cudaSuccess) e = cudaStreamSynchronize(t);
        if (e != cudaSuccess) {
          fprintf(stderr, "floors: host call + cudaStreamSynchronize: %s\n", cudaGetErrorString(e));
          return -1;
        }
      }
      samples.push_back(std::chrono::duration<double, std::micro>(clk::now() - t0).count() / 10);
    }
    return median(samples);
  };
  for (int k = 0; k < 8; ++k) {
    cudaStream_t t;
    CK(cudaStreamCreateWithFlags(&t, cudaStreamNonBlocking));
    const double us = per_call(t, [&] { return cudaMemcpyAsync(b, a, 8, cudaMemcpyDefault, t); });
    if (us < 0) return 1;
    char name[64];
    snprintf(name, sizeof name, "host_copy_sync_latency_stream%d", k);
    row(name, 8, us, "us");
    CK(cudaStreamDestroy(t));
  }
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const double empty_us = per_call(s, [&] {
    host_floor_empty<<<1, 32, 0, s>>>();
    return cudaGetLastError();
  });
  const double copy_us = per_call(s, [&] {
    host_floor_copy8<<<1, 1, 0, s>>>(static_cast<uint64_t *>(b), static_cast<const uint64_t *>(a));
    return cudaGetLastError();
  });
  if (empty_us < 0 || copy_us < 0) return 1;
  row("host_kernel_sync_latency", 8, empty_us, "us");
  row("host_copy_kernel_sync_latency", 8, copy_us, "us");
  CK(cudaStreamDestroy(s));
  CK(cudaFree(a));
  CK(cudaSetDevice(1));
  CK(cudaFree(b));
  CK(cudaSetDevice(0));
  return 0;
}

int main() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n < 2) {
    fprintf(stderr, "floors: needs 2 GPUs\n");
    return 77;
  }
  int ok01 = 0, ok10 = 0;
  CK(cudaDeviceCanAccessPeer(&ok01, 0, 1));
  CK(cudaDeviceCanAccessPeer(&ok10, 1, 0));
  if (!ok01 || !ok10) {
    fprintf(stderr, "floors: GPUs 0 and 1 are not peers\n");
    return 77;
  }
  CK(cudaSetDevice(0));
  CK(cudaDeviceEnablePeerAccess(1, 0));
  CK(cudaSetDevice(1));
  CK(cudaDeviceEnablePeerAccess(0, 0));
  printf("impl,suite,npes,size,metric,value,unit,iters,warmup,ctas,threads,scope,bidir\n");

  // store ping-pong
  unsigned long long *f0, *f1, *ns;
  CK(cudaSetDevice(0));
  CK(cudaMalloc(&f0, 64));
  CK(cudaMemset(f0, 0, 64));
  CK(cudaMallocManaged(&ns, 16));
  CK(cudaSetDevice(1));
  CK(cudaMalloc(&f1, 64));
  CK(cudaMemset(f1, 0, 64));
  const int iters = 10010;
  CK(cudaSetDevice(1));
  ping<<<1, 1>>>(f1, f0, 1, iters, ns);
  CK(cudaSetDevice(0));
  ping<<<1, 1>>>(f0, f1, 0, iters, ns);
  CK(cudaDeviceSynchronize());
  CK(cudaSetDevice(1));
  CK(cudaDeviceSynchronize());
  row("store_ping_pong_rt", 8, *ns / 1000.0, "us");

  // remote load round trip, by load flavor (pointer chase into the other GPU)
  {
    unsigned long long* chain;
    CK(cudaSetDevice(1));
    CK(cudaMalloc(&chain, kChaseSlots * 8));
    chase_init<<<264, 1024>>>(chain);
    CK(cudaDeviceSynchronize());
    CK(cudaSetDevice(0));
    const char* names[] = {"remote_load_weak_rt", "remote_load_cg_rt", "remote_load_volatile_rt",
                           "remote_load_relaxed_sys_rt", "remote_load_acquire_sys_rt"};
    for (int flavor = 0; flavor < 5; ++flavor) {
      chase<<<1, 1>>>(chain, flavor, 10100, ns, ns + 1);
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      row(names[flavor], 8, ns[0] / 1000.0, "us");
    }
    char* local;
    CK(cudaMalloc(&local, kChaseSlots * 8));
    // the same loops in cuMemCreate memory of GPU 1 mapped for GPU 0, as a symmetric heap is
    const char* vremote = static_cast<const char*>(vmm_alloc(1, kChaseSlots * 8));
    if (!vremote) fprintf(stderr, "floors: VMM allocation failed; *_suite_shape_vmm rows left out\n");
    for (int vmm = 0; vmm < (vremote ? 2 : 1); ++vmm) {
      const char* remote = vmm ? vremote : reinterpret_cast<const char*>(chain);
      auto shape = [&](auto kernel, const char* name) -> int {
        kernel<<<1, 1>>>(remote, local, kChaseSlots * 8, kChaseStep * 8, 100, 10000, 0, ns, ns + 1);
        CK(cudaDeviceSynchronize());
        char full[96];
        snprintf(full, sizeof full, "%s%s", name, vmm ? "_vmm" : "");
        row(full, 8, ns[0] / 1000.0, "us");
        return 0;
      };
      if (!vmm && (shape(suite_load<0>, "remote_load_g_weak_pipelined_suite_shape") ||
                   shape(suite_load<1>, "remote_load_g_volatile_pipelined_suite_shape")))
        return 1;
      if (shape(suite_load<2>, "remote_load_g_volatile_suite_shape") || shape(suite_load<3>, "remote_get_suite_shape"))
        return 1;
    }
    CK(cudaFree(local));
    CK(cudaSetDevice(1));
    CK(cudaFree(chain));
    CK(cudaSetDevice(0));
  }

  // SM-store and copy-engine bandwidth, 256 MiB
  const size_t bytes = size_t(256) << 20;
  void *a0, *b0, *a1, *b1;
  CK(cudaSetDevice(0));
  CK(cudaMalloc(&a0, bytes));
  CK(cudaMalloc(&b0, bytes));
  CK(cudaSetDevice(1));
  CK(cudaMalloc(&a1, bytes));
  CK(cudaMalloc(&b1, bytes));
  cudaStream_t s0, s1;
  CK(cudaSetDevice(0));
  CK(cudaStreamCreate(&s0));
  CK(cudaSetDevice(1));
  CK(cudaStreamCreate(&s1));
  auto timed = [&](bool both, bool ce) -> double {
    std::vector<double> gbps;
    for (int rep = 0; rep < 6; ++rep) {
      cudaSetDevice(0);
      cudaDeviceSynchronize();
      cudaSetDevice(1);
      cudaDeviceSynchronize();
      auto t0 = std::chrono::steady_clock::now();
      cudaSetDevice(0);
      if (ce) cudaMemcpyPeerAsync(a1, 1, a0, 0, bytes, s0);
      else store_bw<<<264, 1024, 0, s0>>>(static_cast<uint4*>(a1), static_cast<const uint4*>(a0), bytes / 16);
      if (both) {
        cudaSetDevice(1);
        if (ce) cudaMemcpyPeerAsync(b0, 0, b1, 1, bytes, s1);
        else store_bw<<<264, 1024, 0, s1>>>(static_cast<uint4*>(b0), static_cast<const uint4*>(b1), bytes / 16);
      }
      cudaStreamSynchronize(s0);
      cudaStreamSynchronize(s1);
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (rep) gbps.push_back((both ? 2.0 : 1.0) * bytes / s / 1e9);  // first is warm-up
    }
    std::sort(gbps.begin(), gbps.end());
    return gbps[gbps.size() / 2];
  };
  row("sm_store_bw", bytes, timed(false, false), "GB/s");
  row("sm_store_bw_both_ways", bytes, timed(true, false), "GB/s");
  row("copy_engine_bw", bytes, timed(false, true), "GB/s");
  row("copy_engine_bw_both_ways", bytes, timed(true, true), "GB/s");

  // the put_bw suite's shape (132 x 1024, 20 repetitions, median of 5), GPU 0 -> GPU 1
  {
    CK(cudaSetDevice(0));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    for (size_t sz : {size_t(1) << 20, size_t(16) << 20, size_t(256) << 20}) {
      const int reps = 20;
      std::vector<double> gbps;
      for (int rep = 0; rep < 6; ++rep) {
        CK(cudaEventRecord(e0, s0));
        store_reps<<<132, 1024, 0, s0>>>(static_cast<uint4*>(a1), static_cast<const uint4*>(a0), sz, bytes, reps);
        CK(cudaEventRecord(e1, s0));
        CK(cudaEventSynchronize(e1));
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        if (rep) gbps.push_back(static_cast<double>(sz / 132 / 16 * 16 * 132) * reps / (ms * 1e-3) / 1e9);
      }
      std::sort(gbps.begin(), gbps.end());
      row("sm_store_bw_put_bw_shape", sz, gbps[gbps.size() / 2], "GB/s");
    }
  }

  // one block's put + quiet, GPU 0 -> GPU 1, in cudaMalloc memory and in VMM memory (as a heap)
  CK(cudaSetDevice(0));
  void* v0 = vmm_alloc(0, bytes);
  void* v1 = vmm_alloc(1, bytes);
  if (!v0 || !v1) fprintf(stderr, "floors: VMM allocation failed; block_put_quiet_vmm rows left out\n");
  for (int vmm = 0; vmm < (v0 && v1 ? 2 : 1); ++vmm)
    for (size_t sz : {size_t(1) << 10, size_t(16) << 10, size_t(64) << 10}) {
      const char* names[2][3] = {
          {"block_put_quiet_src_cold", "block_put_quiet_src_warm", "block_put_quiet_src_none"},
          {"block_put_quiet_vmm_src_cold", "block_put_quiet_vmm_src_warm", "block_put_quiet_vmm_src_none"}};
      for (int mode = src_cold; mode <= src_none; ++mode) {
        block_put_quiet<<<1, 1024>>>(static_cast<uint4*>(vmm ? v1 : a1), static_cast<const uint4*>(vmm ? v0 : a0), sz,
                                     bytes, mode, 1000, ns);
        CK(cudaDeviceSynchronize());
        row(names[vmm][mode], sz, *ns / 1000.0, "us");
      }
    }

  // GPU -> host -> GPU round trip through pinned host memory
  CK(cudaSetDevice(0));
  unsigned long long *req, *resp;
  CK(cudaHostAlloc(&req, 64, cudaHostAllocMapped));
  CK(cudaHostAlloc(&resp, 64, cudaHostAllocMapped));
  *req = 0;
  *resp = 0;
  std::thread host([&] {
    volatile unsigned long long* r = req;
    volatile unsigned long long* w = resp;
    unsigned long long last = 0;
    for (;;) {
      const unsigned long long v = *r;
      if (v == ~0ull) break;
      if (v != last) {
        last = v;
        std::atomic_thread_fence(std::memory_order_seq_cst);
        *w = v;
      }
    }
  });
  fifo<<<1, 1>>>(req, resp, iters, ns);
  CK(cudaDeviceSynchronize());
  host.join();
  row("fifo_round_trip", 8, *ns / 1000.0, "us");

  // data + flag ping-pong under each ordering. The warm orderings use small data buffers
  // (cudaMalloc(64), as the flags): with the data at the start of a separate 256 MiB buffer they
  // measured 0.2-0.3 us slower than the flag-only ping-pong's host could explain.
  {
    unsigned long long *d0, *d1, *s0, *s1, *w0, *w1, *bad;
    CK(cudaSetDevice(0));
    CK(cudaMalloc(&w0, 64));
    CK(cudaSetDevice(1));
    CK(cudaMalloc(&w1, 64));
    CK(cudaSetDevice(0));
    CK(cudaMalloc(&d0, kColdSlots * 8));
    CK(cudaMalloc(&s0, kColdSlots * 8));
    fill_cold<<<264, 1024>>>(s0);
    CK(cudaMallocManaged(&bad, 8));
    CK(cudaSetDevice(1));
    CK(cudaMalloc(&d1, kColdSlots * 8));
    CK(cudaMalloc(&s1, kColdSlots * 8));
    fill_cold<<<264, 1024>>>(s1);
    const char* names[] = {"store_none_ping_pong_rt", "store_fence_sys_ping_pong_rt", "store_release_sys_ping_pong_rt",
                           "store_sc_sys_ping_pong_rt", "store_release_sys_cold_ping_pong_rt"};
    for (int order = 0; order < 5; ++order) {
      CK(cudaSetDevice(0));
      CK(cudaMemset(f0, 0, 64));
      const bool cold = order == order_release_cold;
      unsigned long long *e0 = cold ? d0 : w0, *e1 = cold ? d1 : w1;
      CK(cudaMemset(e0, 0, cold ? kColdSlots * 8 : 64));
      CK(cudaDeviceSynchronize());
      CK(cudaSetDevice(1));
      CK(cudaMemset(f1, 0, 64));
      CK(cudaMemset(e1, 0, cold ? kColdSlots * 8 : 64));
      CK(cudaDeviceSynchronize());
      *bad = 0;
      auto* ping_k = cold ? ping_data<true> : ping_data<false>;
      ping_k<<<1, 1>>>(f1, f0, e1, e0, s1, 1, iters, order, ns, bad);
      CK(cudaSetDevice(0));
      ping_k<<<1, 1>>>(f0, f1, e0, e1, s0, 0, iters, order, ns, bad);
      CK(cudaDeviceSynchronize());
      CK(cudaSetDevice(1));
      CK(cudaDeviceSynchronize());
      row(names[order], 8, *ns / 1000.0, "us");
      if (*bad) fprintf(stderr, "floors: %s: %llu stale data reads\n", names[order], *bad);
    }
    CK(cudaFree(d1));
    CK(cudaFree(s1));
    CK(cudaFree(w1));
    CK(cudaSetDevice(0));
    CK(cudaFree(d0));
    CK(cudaFree(s0));
    CK(cudaFree(w0));
  }

  // proxied ping-pongs: one host thread per GPU writes the other GPU's flag with stream operations
  {
    using WriteValue = CUresult (*)(CUstream, CUdeviceptr, cuuint64_t, unsigned int);
    WriteValue write_value = nullptr;
    cudaDriverEntryPointQueryResult q;
    CK(cudaGetDriverEntryPointByVersion("cuStreamWriteValue64", reinterpret_cast<void**>(&write_value), 12000,
                                        cudaEnableDefault, &q));
    unsigned long long *req0, *req1, *src0, *src1, *dst0, *dst1;
    CK(cudaSetDevice(0));
    CK(cudaHostAlloc(&req0, 64, cudaHostAllocMapped | cudaHostAllocPortable));
    CK(cudaMalloc(&src0, 64));
    CK(cudaMalloc(&dst0, 64));
    CK(cudaSetDevice(1));
    CK(cudaHostAlloc(&req1, 64, cudaHostAllocMapped | cudaHostAllocPortable));
    CK(cudaMalloc(&src1, 64));
    CK(cudaMalloc(&dst1, 64));
    for (int with_copy = 0; with_copy < 2; ++with_copy) {
      *req0 = *req1 = 0;
      CK(cudaSetDevice(0));
      CK(cudaMemset(f0, 0, 64));
      CK(cudaDeviceSynchronize());
      CK(cudaSetDevice(1));
      CK(cudaMemset(f1, 0, 64));
      CK(cudaDeviceSynchronize());
      auto proxy = [&](int dev, volatile unsigned long long* req, unsigned long long* flag_there,
                       unsigned long long* src, unsigned long long* dst_there) {
        cudaSetDevice(dev);
        cudaStream_t s;
        cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
        unsigned long long last = 0;
        for (;;) {
          const unsigned long long v = *req;
          if (v == ~0ull) break;
          if (v == last) continue;
          last = v;
          if (with_copy) cudaMemcpyAsync(dst_there, src, 8, cudaMemcpyDeviceToDevice, s);
          write_value(reinterpret_cast<CUstream>(s), reinterpret_cast<CUdeviceptr>(flag_there), v, 0);
        }
        cudaStreamSynchronize(s);
        cudaStreamDestroy(s);
      };
      std::thread p0(proxy, 0, req0, f1, src0, dst1), p1(proxy, 1, req1, f0, src1, dst0);
      CK(cudaSetDevice(1));
      proxied_ping<<<1, 1>>>(req1, f1, 1, iters, ns, nullptr);
      CK(cudaSetDevice(0));
      proxied_ping<<<1, 1>>>(req0, f0, 0, iters, ns, req1);
      CK(cudaDeviceSynchronize());
      CK(cudaSetDevice(1));
      CK(cudaDeviceSynchronize());
      p0.join();
      p1.join();
      row(with_copy ? "ce_put_signal_ping_pong_rt" : "memop_signal_ping_pong_rt", 8, *ns / 1000.0, "us");
    }
  }
  return host_copy_floors();
}
