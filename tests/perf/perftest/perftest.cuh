// The NVSHMEM-perftest definitions (docs/perf/definitions.md): programs that carry an NVSHMEM 3.4.5
// perftest program's name measure what that program measures, with its options, defaults, launch
// shapes, loop bodies, address pattern, timer and reported quantity. They are written against the
// NVSHMEM API, so the same source builds against gshmem (its <nvshmem.h>, no -rdc) and against
// NVSHMEM (build_nvshmem.sh). Our own code, written from the programs' documented behaviour.
//
// Shared here: the option parser (NVSHMEM's letters and defaults: -b 4 -e 4M -f 2 -n 10 -w 5
// -c 32 -t 256 -d int -o sum -s all -a inc -i 1, --bidir, --dir, --issue; sizes take K/M/G/T as
// powers of two), initialisation (one GPU per PE), the CUDA-event timer around one launch, the
// device grid barrier of the bandwidth programs, and the output: NVSHMEM's table ("#job", then
// size, scope and value rows; NVSHMEM_MACHINE_READABLE_OUTPUT=1 gives its "&&&& PERF" lines), or
// --csv for tests/perf/runner.py.
#pragma once
#include <cuda_runtime.h>
#include <nvshmem.h>
#include <nvshmemx.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../perf_api.cuh"
#include "../perf_common.hpp"

namespace pt {

struct Args {
  size_t min_size = 4, max_size = size_t(4) << 20, step = 2;
  int iters = 10, warmup = 5, ctas = 32, threads = 256, stride = 1;
  std::string datatype = "int", reduce_op = "sum", scope = "all", atomic_op = "inc", dir = "write",
              issue = "on_stream";
  bool bidir = false, csv = false;
};

inline void usage(const char* prog, FILE* f) {
  fprintf(f,
          "usage: %s [-b min_size] [-e max_size] [-f step] [-n iters] [-w warmup_iters] [-c ctas]\n"
          "       [-t threads_per_cta] [-d datatype] [-o reduce_op] [-s thread|warp|block|all] [-a atomic_op]\n"
          "       [-i stride] [--bidir] [--dir read|write] [--issue on_stream|host] [--csv]\n"
          "sizes in bytes (K/M/G/T: powers of two); defaults -b 4 -e 4M -f 2 -n 10 -w 5 -c 32 -t 256 (NVSHMEM's)\n",
          prog);
}

// Bad options end the program with status 2 and a line naming the option and the value.
inline Args parse(int argc, char** argv, const char* prog) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string o = argv[i];
    auto value = [&]() -> const char* {
      if (i + 1 >= argc) {
        fprintf(stderr, "%s: %s needs a value\n", prog, o.c_str());
        exit(2);
      }
      return argv[++i];
    };
    auto size_opt = [&](size_t* dst) {
      const char* v = value();
      if (!perf::parse_scaled(v, dst)) {
        fprintf(stderr, "%s: %s: not a size: '%s'\n", prog, o.c_str(), v);
        exit(2);
      }
    };
    auto int_opt = [&](int* dst) {
      size_t v = 0;
      size_opt(&v);
      *dst = static_cast<int>(v);
    };
    if (o == "-b" || o == "--min_size") size_opt(&a.min_size);
    else if (o == "-e" || o == "--max_size") size_opt(&a.max_size);
    else if (o == "-f" || o == "--step") size_opt(&a.step);
    else if (o == "-n" || o == "--iters") int_opt(&a.iters);
    else if (o == "-w" || o == "--warmup_iters") int_opt(&a.warmup);
    else if (o == "-c" || o == "--ctas") int_opt(&a.ctas);
    else if (o == "-t" || o == "--threads_per_cta") int_opt(&a.threads);
    else if (o == "-i" || o == "--stride") int_opt(&a.stride);
    else if (o == "-d" || o == "--datatype") a.datatype = value();
    else if (o == "-o" || o == "--reduce_op") a.reduce_op = value();
    else if (o == "-s" || o == "--scope") a.scope = value();
    else if (o == "-a" || o == "--atomic_op") a.atomic_op = value();
    else if (o == "--dir") a.dir = value();
    else if (o == "--issue") a.issue = value();
    else if (o == "--bidir") a.bidir = true;
    else if (o == "--csv") a.csv = true;
    else if (o == "-h" || o == "--help") {
      usage(prog, stdout);
      exit(0);
    } else {
      fprintf(stderr, "%s: unknown option '%s'\n", prog, o.c_str());
      usage(prog, stderr);
      exit(2);
    }
  }
  if (a.min_size == 0 || a.max_size < a.min_size || a.step < 2 || a.iters < 1 || a.warmup < 0 || a.ctas < 1 ||
      a.threads < 1 || a.threads > 1024 || a.stride < 1) {
    fprintf(stderr, "%s: invalid options: -b %zu -e %zu -f %zu -n %d -w %d -c %d -t %d -i %d\n", prog, a.min_size,
            a.max_size, a.step, a.iters, a.warmup, a.ctas, a.threads, a.stride);
    exit(2);
  }
  if (a.scope != "all" && a.scope != "thread" && a.scope != "warp" && a.scope != "block") {
    fprintf(stderr, "%s: -s: '%s' is not thread, warp, block or all\n", prog, a.scope.c_str());
    exit(2);
  }
  return a;
}

inline std::vector<size_t> sizes(const Args& a) {
  std::vector<size_t> v;
  for (size_t s = a.min_size; s <= a.max_size; s *= a.step) {
    v.push_back(s);
    if (s > SIZE_MAX / a.step) break;
  }
  return v;
}

// Initialisation: gshmem binds each PE to its GPU in nvshmem_init (oshrun / mpirun); the NVSHMEM
// build sets the local rank's GPU first (perf_api.cuh). A program that needs two PEs says so.
inline void init(const char* prog) {
  perf_require_gpu(prog);
  P_init();
}
inline bool require_two_pes(const char* prog) {
  if (nvshmem_n_pes() == 2) return true;
  if (nvshmem_my_pe() == 0) fprintf(stderr, "%s: this test requires exactly two processes (got %d)\n", prog, nvshmem_n_pes());
  return false;
}

inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    fprintf(stderr, "perftest: %s: %s\n", what, cudaGetErrorString(e));
    exit(1);
  }
}

// The timer of every device program: two CUDA events on the launch stream around one launch that
// runs all timed iterations; the result is the elapsed time in ms.
struct Timer {
  cudaEvent_t start{}, stop{};
  Timer() {
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
  }
  ~Timer() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
  template <typename F>
  float time(cudaStream_t s, F&& launch) {
    cudaEventRecord(start, s);
    launch();
    cudaEventRecord(stop, s);
    check(cudaGetLastError(), "kernel launch");
    check(cudaEventSynchronize(stop), "kernel");
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    return ms;
  }
};

// NVSHMEM's bandwidth expression: size / (ms * (10^9 / (iters * 1000))) with integer division in
// the inner term, i.e. size * iters / (ms * 10^6) GB/s (10^9 bytes) whenever iters divides 10^6.
inline double bandwidth_gbs(size_t size, float ms, int iters) {
  const long long denom = 1000000000LL / (static_cast<long long>(iters) * 1000LL);
  return static_cast<double>(size) / (static_cast<double>(ms) * static_cast<double>(denom));
}

// Output. One table per (job, subjob); rows whose value is 0 are left out, as NVSHMEM does.
struct Table {
  std::string job, subjob, metric, unit;
  char better;  // '-': lower is better, '+': higher
  std::vector<size_t> size;
  std::vector<double> value;
  void add(size_t s, double v) {
    size.push_back(s);
    value.push_back(v);
  }
  void print(const Args& a, const char* prog) const {
    const char* mr = getenv("NVSHMEM_MACHINE_READABLE_OUTPUT");
    if (a.csv) {
      printf("impl,program,job,subjob,npes,size,metric,value,unit,iters,warmup,ctas,threads,bidir\n");
      for (size_t i = 0; i < size.size(); ++i)
        if (value[i] != 0.0)
          printf("%s,%s,%s,%s,%d,%zu,%s,%.6f,%s,%d,%d,%d,%d,%d\n", P_IMPL, prog, job.c_str(), subjob.c_str(),
                 nvshmem_n_pes(), size[i], metric.c_str(), value[i], unit.c_str(), a.iters, a.warmup, a.ctas, a.threads,
                 a.bidir ? 1 : 0);
    } else if (mr && atoi(mr) != 0) {
      printf("%s\n", job.c_str());
      for (size_t i = 0; i < size.size(); ++i)
        if (value[i] != 0.0)
          printf("&&&& PERF %s___%s___size__%zu___%s %lf %c%s\n", job.c_str(), subjob.c_str(), size[i], metric.c_str(),
                 value[i], better, unit.c_str());
    } else {
      printf("#%10s\n", job.c_str());
      printf("%-10s  %-8s  %-16s\n", "size(B)", "scope", (metric + " (" + unit + ")").c_str());
      for (size_t i = 0; i < size.size(); ++i)
        if (value[i] != 0.0) printf("%-10zu  %-8s  %-16.6lf\n", size[i], subjob.c_str(), value[i]);
    }
    fflush(stdout);
  }
};

// The grid barrier of the bandwidth kernels: counter[0] counts arrivals, counter[1] releases;
// barrier e (1-based) completes when every block has arrived e times. The last block to arrive
// quiets first when asked (the final barrier), so the kernel ends with everything complete.
// counter must be zeroed before each launch.
__device__ __forceinline__ void grid_barrier(unsigned* counter, unsigned e, bool quiet) {
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    const unsigned old = atomicInc(counter, UINT_MAX);
    if (old == gridDim.x * e - 1) {
      if (quiet) nvshmem_quiet();
      atomicAdd(counter + 1, 1u);
    }
    while (*reinterpret_cast<volatile unsigned*>(counter + 1) != e) {
    }
  }
  __syncthreads();
}

}  // namespace pt
