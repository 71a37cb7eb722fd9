// latency, bw (PERFTEST_PROGRAM; NVSHMEM's perftest/host/pt-to-pt programs): NVSHMEM 3.4.5
// definitions (docs/perf/definitions.md). 2 PEs; PE 0 moves size bytes between its local symmetric
// buffer and PE 1's symmetric buffer (offset 0 every time): --dir write (default) puts, read gets;
// --issue on_stream (default) enqueues on a non-blocking stream, host calls from the host thread.
// -w calls first, then -n timed calls:
//   latency: blocking putmem/getmem (on_stream: the *_on_stream forms between two CUDA events, no
//            quiet; host: wall clock, one quiet after the loop); us per call.
//   bw:      putmem_nbi/getmem_nbi (on_stream: the *_nbi_on_stream forms; the start event after a
//            quiet_on_stream and a stream sync, the stop event after the last quiet_on_stream and a
//            stream sync; host: wall clock, one quiet); iters * size / s / 10^9 GB/s.
#include <sys/time.h>

#include "perftest.cuh"

#include "../program_name.h"
#ifdef PERFTEST_PROGRAM
static const std::string kProg = GSHMEM_PERF_STR(PERFTEST_PROGRAM);
#else
static const std::string kProg = gshmem_perf_program;
#endif

static double wall_us() {
  timeval tv;
  gettimeofday(&tv, nullptr);
  return tv.tv_sec * 1e6 + tv.tv_usec;
}

int main(int argc, char** argv) {
  const pt::Args a = pt::parse(argc, argv, kProg.c_str());
  const bool bw = kProg == "bw", read = a.dir == "read", on_stream = a.issue == "on_stream";
  if ((a.dir != "read" && a.dir != "write") || (a.issue != "on_stream" && a.issue != "host")) {
    fprintf(stderr, "%s: --dir read|write and --issue on_stream|host (got %s, %s)\n", kProg.c_str(), a.dir.c_str(),
            a.issue.c_str());
    return 2;
  }
  pt::init(kProg.c_str());
  const int me = nvshmem_my_pe();
  int rc = 0;
  if (!pt::require_two_pes(kProg.c_str())) {
    rc = 1;
  } else {
    char* remote = static_cast<char*>(nvshmem_malloc(a.max_size));
    char* local = static_cast<char*>(nvshmem_malloc(a.max_size));
    pt::check(cudaMemset(remote, 0, a.max_size), "cudaMemset");
    pt::check(cudaMemset(local, 0, a.max_size), "cudaMemset");
    pt::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    cudaStream_t st;
    pt::check(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking), "cudaStreamCreate");
    pt::Timer timer;
    nvshmem_barrier_all();
    pt::Table table{bw ? "Bandwidth" : "Latency", "None", bw ? "Bandwidth" : "latency", bw ? "GB" : "us",
                    bw ? '+' : '-', {}, {}};
    const int peer = 1;
    if (me == 0) {
      for (size_t size : pt::sizes(a)) {
        double value = 0;
        if (on_stream) {
          for (int i = 0; i < a.warmup + a.iters; ++i) {
            if (i == a.warmup) {
              if (bw) {
                nvshmemx_quiet_on_stream(st);
                pt::check(cudaStreamSynchronize(st), "cudaStreamSynchronize");
              }
              cudaEventRecord(timer.start, st);
            }
            if (bw && read) nvshmemx_getmem_nbi_on_stream(local, remote, size, peer, st);
            else if (bw) nvshmemx_putmem_nbi_on_stream(remote, local, size, peer, st);
            else if (read) nvshmemx_getmem_on_stream(local, remote, size, peer, st);
            else nvshmemx_putmem_on_stream(remote, local, size, peer, st);
          }
          if (bw) {
            nvshmemx_quiet_on_stream(st);
            pt::check(cudaStreamSynchronize(st), "cudaStreamSynchronize");
          }
          cudaEventRecord(timer.stop, st);
          pt::check(cudaEventSynchronize(timer.stop), "stream");
          float ms = 0;
          cudaEventElapsedTime(&ms, timer.start, timer.stop);
          value = bw ? (static_cast<double>(a.iters) * size) / ((ms / 1000.0) * 1e9) : ms * 1000.0 / a.iters;
        } else {
          double t0 = 0;
          for (int i = 0; i < a.warmup + a.iters; ++i) {
            if (i == a.warmup) {
              if (bw) nvshmem_quiet();
              t0 = wall_us();
            }
            if (bw && read) nvshmem_getmem_nbi(local, remote, size, peer);
            else if (bw) nvshmem_putmem_nbi(remote, local, size, peer);
            else if (read) nvshmem_getmem(local, remote, size, peer);
            else nvshmem_putmem(remote, local, size, peer);
          }
          nvshmem_quiet();
          const double us = static_cast<double>(static_cast<long long>(wall_us() - t0));
          value = bw ? (static_cast<double>(a.iters) * size) / ((us / 1e6) * 1e9) : us / a.iters;
        }
        table.add(size, value);
      }
      table.print(a, kProg.c_str());
    }
    nvshmem_barrier_all();
    cudaStreamDestroy(st);
    nvshmem_free(local);
    nvshmem_free(remote);
  }
  nvshmem_finalize();
  return rc;
}
