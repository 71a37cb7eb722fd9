// CPU-PE suites (host heap): put/get latency and bandwidth, atomic latency per operation, barrier,
// a sum reduction.
// One source, one program per suite (GSHMEM_PERF_SUITE picks it). Latency = mean time of one
// operation including its completion (put + quiet, blocking get, one AMO, one barrier, one
// reduction), over -n iterations after -w warm-up ones. Bandwidth = bytes moved / time of -n nbi
// transfers + quiet (--bidir: both PEs transfer at once; the sum is reported). PE 0 measures; run
// with 2 PEs (the barrier and the reduction: any number).
#include <shmem.h>

#include <time.h>

#include <algorithm>
#include <functional>

#include "perf_common.hpp"

namespace {
double now_us() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}

// Times f() over o.iters iterations after o.warmup, returns microseconds per iteration.
double time_us(const perf::Options& o, const std::function<void()>& f) {
  for (int i = 0; i < o.warmup; ++i) f();
  const double t0 = now_us();
  for (int i = 0; i < o.iters; ++i) f();
  return (now_us() - t0) / o.iters;
}

#define STR2(x) #x
#define STR(x) STR2(x)
const std::string kSuite = "cpu_" STR(GSHMEM_PERF_SUITE);
// The same source builds against another OpenSHMEM (e.g. Open MPI's OSHMEM: oshc++
// -DGSHMEM_PERF_IMPL=oshmem) for side-by-side runs.
#ifndef GSHMEM_PERF_IMPL
#define GSHMEM_PERF_IMPL gshmem
#endif
const std::string kImpl = STR(GSHMEM_PERF_IMPL);
}  // namespace

int main(int argc, char** argv) {
  const bool bw = kSuite.find("_bw") != std::string::npos;
  perf::Options d;
  if (bw) {
    d.min_size = 4096;
    d.max_size = 64 << 20;
    d.iters = 20;
    d.warmup = 2;
  } else if (kSuite == "cpu_put_latency" || kSuite == "cpu_get_latency" || kSuite == "cpu_reduction_latency") {
    d.min_size = 8;
    d.max_size = 1 << 20;
  }
  perf::Options o = perf::parse(argc, argv, kSuite.c_str(), d);
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  if (npes < 2) {
    if (me == 0) fprintf(stderr, "%s: run with at least 2 PEs\n", kSuite.c_str());
    shmem_finalize();
    return 2;
  }
  perf::Report report(kSuite, o, npes, kImpl);
  const size_t max = o.max_size;
  char* src = static_cast<char*>(shmem_malloc(max));
  char* dst = static_cast<char*>(shmem_malloc(max));
  unsigned long long* word = static_cast<unsigned long long*>(shmem_calloc(8, sizeof(unsigned long long)));
  if (!src || !dst || !word) {
    if (me == 0)
      fprintf(stderr, "%s: -e %zu does not fit the symmetric heap (SHMEM_SYMMETRIC_SIZE)\n", kSuite.c_str(), max);
    shmem_global_exit(1);
  }
  memset(src, me + 1, max);
  shmem_barrier_all();
  const int peer = 1 - (me & 1) + (me & ~1);  // pairs (0,1), (2,3), ...
  const bool active = me == 0 || (o.bidir && me == 1);

  if (kSuite == "cpu_put_latency" || kSuite == "cpu_get_latency") {
    const bool put = kSuite == "cpu_put_latency";
    for (size_t s : perf::sizes(o)) {
      double us = 0;
      if (me == 0)
        us = time_us(o, [&] {
          if (put) {
            shmem_putmem(dst, src, s, peer);
            shmem_quiet();
          } else {
            shmem_getmem(dst, src, s, peer);
          }
        });
      shmem_barrier_all();
      if (me == 0) report.add(s, "latency", us, "us");
    }
  } else if (bw) {
    const bool put = kSuite == "cpu_put_bw";
    for (size_t s : perf::sizes(o)) {
      shmem_barrier_all();
      double us = 0;
      if (active)
        us = time_us(o, [&] {
          if (put) shmem_putmem_nbi(dst, src, s, peer);
          else shmem_getmem_nbi(dst, src, s, peer);
          shmem_quiet();
        });
      static double peer_gbps;
      const double gbps = active ? s / (us * 1e-6) / 1e9 : 0;
      shmem_barrier_all();
      if (me == 1) shmem_double_p(&peer_gbps, gbps, 0);
      shmem_barrier_all();
      if (me == 0) report.add(s, o.bidir ? "bandwidth_bidir" : "bandwidth", gbps + (o.bidir ? peer_gbps : 0), "GB/s");
    }
  } else if (kSuite == "cpu_atomic_latency") {
    struct Op {
      const char* name;
      std::function<void()> f;
    };
    unsigned long long* t = word;
    const Op ops[] = {
        {"fetch", [&] { (void)shmem_ulonglong_atomic_fetch(t, peer); }},
        {"set", [&] { shmem_ulonglong_atomic_set(t, 1, peer); }},
        {"swap", [&] { (void)shmem_ulonglong_atomic_swap(t, 2, peer); }},
        {"compare_swap", [&] { (void)shmem_ulonglong_atomic_compare_swap(t, 2, 3, peer); }},
        {"fetch_inc", [&] { (void)shmem_ulonglong_atomic_fetch_inc(t, peer); }},
        {"inc", [&] { shmem_ulonglong_atomic_inc(t, peer); }},
        {"fetch_add", [&] { (void)shmem_ulonglong_atomic_fetch_add(t, 5, peer); }},
        {"add", [&] { shmem_ulonglong_atomic_add(t, 5, peer); }},
        {"fetch_and", [&] { (void)shmem_ulonglong_atomic_fetch_and(t, ~0ull, peer); }},
        {"fetch_or", [&] { (void)shmem_ulonglong_atomic_fetch_or(t, 1, peer); }},
        {"fetch_xor", [&] { (void)shmem_ulonglong_atomic_fetch_xor(t, 1, peer); }},
    };
    for (const Op& op : ops) {
      double us = me == 0 ? time_us(o,
                                    [&] {
                                      op.f();
                                      shmem_quiet();
                                    })
                          : 0;
      shmem_barrier_all();
      if (me == 0) report.add(8, op.name, us, "us");
    }
  } else if (kSuite == "cpu_barrier_latency") {
    const double us = time_us(o, [] { shmem_barrier_all(); });
    if (me == 0) report.add(0, "barrier_all", us, "us");
#ifdef GSHMEM_VERSION_STRING  // shmem_sync_all is OpenSHMEM 1.5
    const double us2 = time_us(o, [] { shmem_sync_all(); });
    if (me == 0) report.add(0, "sync_all", us2, "us");
#endif
  } else if (kSuite == "cpu_reduction_latency") {
    // A sum of longs over every PE: the active-set form both libraries have (two pSync arrays in
    // turn: a PE leaves a reduction only after every PE entered it, so call i + 2 may reuse call
    // i's), and on gshmem also the team form (OpenSHMEM 1.5).
    const size_t most = max / sizeof(long);
    long* in = reinterpret_cast<long*>(src);
    long* out = reinterpret_cast<long*>(dst);
    const size_t nwrk = std::max<size_t>(most / 2 + 1, SHMEM_REDUCE_MIN_WRKDATA_SIZE);
    long* wrk = static_cast<long*>(shmem_malloc(nwrk * sizeof(long)));
    long* psync = static_cast<long*>(shmem_malloc(2 * SHMEM_REDUCE_SYNC_SIZE * sizeof(long)));
    if (!wrk || !psync) {
      if (me == 0) fprintf(stderr, "%s: -e %zu does not fit the symmetric heap\n", kSuite.c_str(), max);
      shmem_global_exit(1);
    }
    for (size_t i = 0; i < 2 * SHMEM_REDUCE_SYNC_SIZE; ++i) psync[i] = SHMEM_SYNC_VALUE;
    for (size_t i = 0; i < most; ++i) in[i] = static_cast<long>(i) + me;
    shmem_barrier_all();
    for (size_t s : perf::sizes(o)) {
      const int n = static_cast<int>(s / sizeof(long));
      if (n < 1) continue;
      int k = 0;
      const double us = time_us(
          o, [&] { shmem_long_sum_to_all(out, in, n, 0, 0, npes, wrk, psync + (k++ & 1) * SHMEM_REDUCE_SYNC_SIZE); });
      // every element i is the sum over PEs of i + pe
      const long want = static_cast<long>(n - 1) * npes + static_cast<long>(npes) * (npes - 1) / 2;
      if (out[n - 1] != want) {
        fprintf(stderr, "%s: pe %d: element %d is %ld, not %ld\n", kSuite.c_str(), me, n - 1, out[n - 1], want);
        shmem_global_exit(1);
      }
      shmem_barrier_all();
      if (me == 0) report.add(s, "sum_to_all", us, "us");
#ifdef GSHMEM_VERSION_STRING  // team reductions are OpenSHMEM 1.5
      out[n - 1] = 0;
      const double us2 = time_us(o, [&] { (void)shmem_long_sum_reduce(SHMEM_TEAM_WORLD, out, in, n); });
      if (out[n - 1] != want) {
        fprintf(stderr, "%s: pe %d: team reduction: element %d is %ld, not %ld\n", kSuite.c_str(), me, n - 1,
                out[n - 1], want);
        shmem_global_exit(1);
      }
      shmem_barrier_all();
      if (me == 0) report.add(s, "sum_reduce", us2, "us");
#endif
    }
    shmem_free(psync);
    shmem_free(wrk);
  } else {
    if (me == 0) fprintf(stderr, "unknown suite %s\n", kSuite.c_str());
    shmem_global_exit(2);
  }
  shmem_barrier_all();
  if (me == 0) report.print();
  shmem_free(word);
  shmem_free(dst);
  shmem_free(src);
  shmem_finalize();
  return 0;
}
