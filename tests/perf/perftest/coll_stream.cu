// barrier_all_on_stream, barrier_on_stream, sync_all_on_stream, sync_on_stream,
// broadcast_on_stream, fcollect_on_stream, alltoall_on_stream, reduction_on_stream
// (PERFTEST_PROGRAM; NVSHMEM's perftest/host/coll programs): NVSHMEM 3.4.5 definitions
// (docs/perf/definitions.md), any number of PEs, team WORLD, PE 0 reports.
//   barrier_all_on_stream / barrier_on_stream: -w calls, stream sync, barrier_all, then -n calls
//     back to back between two events (barrier_all_on_stream: 10 and 1000 unless -w/-n are given,
//     NVSHMEM 3.4.5's fixed counts); us per call.
//   sync_all_on_stream / sync_on_stream: -w + -n calls back to back, the start event after the
//     first -w (sync_all: 16 and 128 unless given); us per call.
//   broadcast (root 0) / fcollect / alltoall _on_stream, one -d datatype (default int):
//     barrier_all_on_stream, -w calls, stream sync, barrier_all_on_stream, then -n samples of one
//     call each between two events with a stream sync after it; the mean of the samples (us) and,
//     with --csv, their min and max. Element counts: size / type (fcollect, alltoall: size /
//     (npes x type), reported size x npes).
//   reduction_on_stream, one -d datatype and one -o operation: barrier_all_on_stream, -w calls,
//     then -n single-call samples as above (no sync before the first); the same statistics.
// --cudagraph (NVSHMEM's graph mode) is not part of these programs.
#include <algorithm>

#include "perftest.cuh"

#include "../program_name.h"
#ifdef PERFTEST_PROGRAM
static const std::string kProg = GSHMEM_PERF_STR(PERFTEST_PROGRAM);
#else
static const std::string kProg = gshmem_perf_program;
#endif

enum Coll { c_bcast, c_fcollect, c_alltoall, c_reduce };
enum RedOp { r_sum, r_prod, r_and, r_or, r_xor, r_min, r_max };
static const char* kRedNames[] = {"sum", "prod", "and", "or", "xor", "min", "max"};

// One enqueued call of coll (op for reductions) on nelems elements of the named type; false when
// the type or the operation is not one NVSHMEM's program accepts.
using Call = bool (*)(int coll, int op, void* d, const void* s, size_t n, cudaStream_t st);

#define ARITH_OPS(NAME, T)                                                                                        \
  case r_sum: nvshmemx_##NAME##_sum_reduce_on_stream(NVSHMEM_TEAM_WORLD, (T*)d, (const T*)s, n, st); return true;   \
  case r_prod: nvshmemx_##NAME##_prod_reduce_on_stream(NVSHMEM_TEAM_WORLD, (T*)d, (const T*)s, n, st); return true; \
  case r_min: nvshmemx_##NAME##_min_reduce_on_stream(NVSHMEM_TEAM_WORLD, (T*)d, (const T*)s, n, st); return true;   \
  case r_max: nvshmemx_##NAME##_max_reduce_on_stream(NVSHMEM_TEAM_WORLD, (T*)d, (const T*)s, n, st); return true;
#define BIT_OPS(NAME, T)                                                                                          \
  case r_and: nvshmemx_##NAME##_and_reduce_on_stream(NVSHMEM_TEAM_WORLD, (T*)d, (const T*)s, n, st); return true;   \
  case r_or: nvshmemx_##NAME##_or_reduce_on_stream(NVSHMEM_TEAM_WORLD, (T*)d, (const T*)s, n, st); return true;     \
  case r_xor: nvshmemx_##NAME##_xor_reduce_on_stream(NVSHMEM_TEAM_WORLD, (T*)d, (const T*)s, n, st); return true;
#define NO_BIT_OPS(NAME, T)
#define TYPE_CALL(NAME, T, BITS)                                                                                  \
  static bool call_##NAME(int coll, int op, void* d, const void* s, size_t n, cudaStream_t st) {                  \
    switch (coll) {                                                                                               \
      case c_bcast: nvshmemx_##NAME##_broadcast_on_stream(NVSHMEM_TEAM_WORLD, (T*)d, (const T*)s, n, 0, st); return true; \
      case c_fcollect: nvshmemx_##NAME##_fcollect_on_stream(NVSHMEM_TEAM_WORLD, (T*)d, (const T*)s, n, st); return true;  \
      case c_alltoall: nvshmemx_##NAME##_alltoall_on_stream(NVSHMEM_TEAM_WORLD, (T*)d, (const T*)s, n, st); return true;  \
      default: break;                                                                                             \
    }                                                                                                             \
    switch (op) {                                                                                                 \
      ARITH_OPS(NAME, T)                                                                                          \
      BITS(NAME, T)                                                                                               \
      default: return false;                                                                                      \
    }                                                                                                             \
  }
TYPE_CALL(int, int, NO_BIT_OPS)
TYPE_CALL(long, long, NO_BIT_OPS)
TYPE_CALL(longlong, long long, NO_BIT_OPS)
TYPE_CALL(ulonglong, unsigned long long, NO_BIT_OPS)
TYPE_CALL(float, float, NO_BIT_OPS)
TYPE_CALL(double, double, NO_BIT_OPS)
TYPE_CALL(half, half, NO_BIT_OPS)
TYPE_CALL(bfloat16, __nv_bfloat16, NO_BIT_OPS)
TYPE_CALL(size, size_t, BIT_OPS)
TYPE_CALL(uint, unsigned int, BIT_OPS)
TYPE_CALL(int32, int32_t, BIT_OPS)
TYPE_CALL(int64, int64_t, BIT_OPS)
TYPE_CALL(uint32, uint32_t, BIT_OPS)
TYPE_CALL(uint64, uint64_t, BIT_OPS)

struct TypeEntry {
  const char* opt;  // -d value
  int bytes;
  Call call;
};
static const TypeEntry kTypes[] = {
    {"int", 4, call_int},       {"long", 8, call_long},         {"longlong", 8, call_longlong},
    {"ulonglong", 8, call_ulonglong}, {"float", 4, call_float}, {"double", 8, call_double},
    {"fp16", 2, call_half},     {"half", 2, call_half},         {"bf16", 2, call_bfloat16},
    {"bfloat16", 2, call_bfloat16}, {"size", 8, call_size},     {"uint", 4, call_uint},
    {"int32", 4, call_int32},   {"int64", 8, call_int64},       {"uint32", 4, call_uint32},
    {"uint64", 8, call_uint64}};

static void enqueue_sync(int kind, cudaStream_t st) {
  switch (kind) {
    case 0: nvshmemx_barrier_all_on_stream(st); break;
    case 1: nvshmemx_barrier_on_stream(NVSHMEM_TEAM_WORLD, st); break;
    case 2: nvshmemx_sync_all_on_stream(st); break;
    default: nvshmemx_team_sync_on_stream(NVSHMEM_TEAM_WORLD, st); break;
  }
}

int main(int argc, char** argv) {
  pt::Args a = pt::parse(argc, argv, kProg.c_str());
  const char* sync_progs[] = {"barrier_all_on_stream", "barrier_on_stream", "sync_all_on_stream", "sync_on_stream"};
  int sync_kind = -1;
  for (int i = 0; i < 4; ++i)
    if (kProg == sync_progs[i]) sync_kind = i;
  bool given_n = false, given_w = false;
  for (int i = 1; i < argc; ++i) {
    given_n |= !strcmp(argv[i], "-n") || !strcmp(argv[i], "--iters");
    given_w |= !strcmp(argv[i], "-w") || !strcmp(argv[i], "--warmup_iters");
  }
  if (sync_kind == 0 || sync_kind == 2) {  // NVSHMEM 3.4.5's fixed counts for these two
    if (!given_n) a.iters = sync_kind == 0 ? 1000 : 128;
    if (!given_w) a.warmup = sync_kind == 0 ? 10 : 16;
  }
  const TypeEntry* type = nullptr;
  int coll = c_bcast, op = r_sum;
  if (sync_kind < 0) {
    for (const TypeEntry& t : kTypes)
      if (a.datatype == t.opt) type = &t;
    if (!type) {
      fprintf(stderr, "%s: -d: unsupported datatype '%s'\n", kProg.c_str(), a.datatype.c_str());
      return 2;
    }
    coll = kProg == "broadcast_on_stream" ? c_bcast
           : kProg == "fcollect_on_stream" ? c_fcollect
           : kProg == "alltoall_on_stream" ? c_alltoall
                                            : c_reduce;
    op = -1;
    for (int i = 0; i < 7; ++i)
      if (a.reduce_op == kRedNames[i]) op = i;
    if (coll == c_reduce && op < 0) {
      fprintf(stderr, "%s: -o: unknown reduction operation '%s'\n", kProg.c_str(), a.reduce_op.c_str());
      return 2;
    }
    const bool integer = a.datatype == "size" || a.datatype == "uint" || a.datatype.rfind("int", 0) == 0 ||
                         a.datatype.rfind("uint", 0) == 0;
    if (coll == c_reduce && (op == r_and || op == r_or || op == r_xor) && (!integer || a.datatype == "int")) {
      fprintf(stderr, "%s: -o %s is not defined for -d %s (NVSHMEM's program: Invalid reduction operation)\n",
              kProg.c_str(), a.reduce_op.c_str(), a.datatype.c_str());
      return 2;
    }
  }
  pt::init(kProg.c_str());
  const int me = nvshmem_my_pe(), npes = nvshmem_n_pes();
  cudaStream_t st;
  if (coll == c_reduce && sync_kind < 0) pt::check(cudaStreamCreate(&st), "cudaStreamCreate");
  else pt::check(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking), "cudaStreamCreate");
  pt::Timer timer;
  int rc = 0;
  if (sync_kind >= 0) {
    if (sync_kind <= 1) {
      for (int i = 0; i < a.warmup; ++i) enqueue_sync(sync_kind, st);
      pt::check(cudaStreamSynchronize(st), "cudaStreamSynchronize");
      nvshmem_barrier_all();
      cudaEventRecord(timer.start, st);
      for (int i = 0; i < a.iters; ++i) enqueue_sync(sync_kind, st);
    } else {
      for (int i = 0; i < a.warmup + a.iters; ++i) {
        if (i == a.warmup) cudaEventRecord(timer.start, st);
        enqueue_sync(sync_kind, st);
      }
    }
    cudaEventRecord(timer.stop, st);
    pt::check(cudaEventSynchronize(timer.stop), "stream");
    float ms = 0;
    cudaEventElapsedTime(&ms, timer.start, timer.stop);
    if (me == 0) {
      pt::Table t{kProg, "None", "latency", "us", '-', {}, {}};
      t.add(1, ms * 1000.0 / a.iters);
      t.print(a, kProg.c_str());
    }
  } else {
    char* buf = static_cast<char*>(nvshmem_malloc(2 * a.max_size));
    pt::check(cudaMemset(buf, 0, 2 * a.max_size), "cudaMemset");
    pt::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    nvshmem_barrier_all();
    void* src = buf;
    void* dst = buf + a.max_size;
    const bool per_pe = coll == c_fcollect || coll == c_alltoall;
    const size_t div = static_cast<size_t>(type->bytes) * (per_pe ? npes : 1);
    const size_t min_e = std::max<size_t>(1, a.min_size / div), max_e = std::max<size_t>(1, a.max_size / div);
    const std::string sub = coll == c_reduce ? a.datatype + "-" + a.reduce_op : a.datatype;
    pt::Table mean{kProg, sub, "latency", "us", '-', {}, {}}, lo{kProg, sub, "min_lat", "us", '-', {}, {}},
        hi{kProg, sub, "max_lat", "us", '-', {}, {}};
    for (size_t n = min_e; n <= max_e && rc == 0; n *= a.step) {
      std::vector<double> us;
      nvshmemx_barrier_all_on_stream(st);
      auto call = [&] {
        if (!type->call(coll, op, dst, src, n, st)) {
          if (me == 0) fprintf(stderr, "%s: -o %s is not defined for -d %s\n", kProg.c_str(), a.reduce_op.c_str(), a.datatype.c_str());
          rc = 2;
          return false;
        }
        return true;
      };
      for (int i = 0; i < a.warmup && rc == 0; ++i) call();
      if (coll != c_reduce) {
        pt::check(cudaStreamSynchronize(st), "cudaStreamSynchronize");
        nvshmemx_barrier_all_on_stream(st);
      }
      for (int i = 0; i < a.iters && rc == 0; ++i) {
        cudaEventRecord(timer.start, st);
        call();
        cudaEventRecord(timer.stop, st);
        pt::check(cudaStreamSynchronize(st), "collective");
        float ms = 0;
        cudaEventElapsedTime(&ms, timer.start, timer.stop);
        us.push_back(ms * 1000.0);
      }
      if (rc || us.empty()) break;
      double sum = 0;
      for (double v : us) sum += v;
      mean.add(n * div, sum / us.size());
      lo.add(n * div, *std::min_element(us.begin(), us.end()));
      hi.add(n * div, *std::max_element(us.begin(), us.end()));
    }
    pt::check(cudaStreamSynchronize(st), "cudaStreamSynchronize");
    nvshmem_barrier_all();
    if (me == 0 && rc == 0) {
      mean.print(a, kProg.c_str());
      if (a.csv) {
        lo.print(a, kProg.c_str());
        hi.print(a, kProg.c_str());
      }
    }
    nvshmem_free(buf);
  }
  cudaStreamDestroy(st);
  nvshmem_finalize();
  return rc;
}
