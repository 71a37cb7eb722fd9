// shmem_atomic_latency: the NVSHMEM 3.4.5 perftest definition (docs/perf/definitions.md). -a picks
// one operation (inc, fetch_inc, set, add, fetch_add, and, fetch_and, or, fetch_or, xor,
// fetch_xor, swap, compare_swap; a prefix is enough); it runs over every datatype NVSHMEM's program
// runs it on, one table each (size = the type's size). 2 PEs, one collective launch of one
// thread per PE; PE 0 applies the operation to PE 1's flag (the same word every iteration), PE 1
// does nothing. Non-fetching operations quiet after each one; fetching ones (and swap,
// compare_swap) return their value and the kernel quiets once at the end. As in NVSHMEM's program
// the counts are fixed, not -n/-w: 500 timed after 50 warm-up, but and/or (fetching or not) 64 for
// 64-bit types and 32 for 32-bit types, no warm-up. Value: ms * 1000 / iterations, us.
#include "perftest.cuh"

enum Op { op_inc, op_fetch_inc, op_set, op_add, op_fetch_add, op_and, op_fetch_and, op_or, op_fetch_or, op_xor,
          op_fetch_xor, op_swap, op_cswap };
static const char* kOpNames[] = {"inc", "fetch_inc", "set", "add", "fetch_add", "and", "fetch_and", "or", "fetch_or",
                                 "xor", "fetch_xor", "swap", "compare_swap"};

template <typename T>
struct Amo;
// Each C type's NVSHMEM routines; the bitwise ones of int and long are NVSHMEM's int32 and int64
// names (int32_t, uint32_t, int64_t, uint64_t and size_t are the same C types as int, unsigned int,
// long and unsigned long here, so they share these).
#define AMO_TYPE(NAME, BITS, T)                                                                        \
  template <>                                                                                          \
  struct Amo<T> {                                                                                      \
    static __device__ void inc(T* p, int pe) { nvshmem_##NAME##_atomic_inc(p, pe); }                   \
    static __device__ T fetch_inc(T* p, int pe) { return nvshmem_##NAME##_atomic_fetch_inc(p, pe); }   \
    static __device__ void set(T* p, T v, int pe) { nvshmem_##NAME##_atomic_set(p, v, pe); }           \
    static __device__ void add(T* p, T v, int pe) { nvshmem_##NAME##_atomic_add(p, v, pe); }           \
    static __device__ T fetch_add(T* p, T v, int pe) { return nvshmem_##NAME##_atomic_fetch_add(p, v, pe); } \
    static __device__ T swap(T* p, T v, int pe) { return nvshmem_##NAME##_atomic_swap(p, v, pe); }     \
    static __device__ T cswap(T* p, T c, T v, int pe) { return nvshmem_##NAME##_atomic_compare_swap(p, c, v, pe); } \
    static __device__ void and_(T* p, T v, int pe) { nvshmem_##BITS##_atomic_and(p, v, pe); }          \
    static __device__ T fetch_and(T* p, T v, int pe) { return nvshmem_##BITS##_atomic_fetch_and(p, v, pe); } \
    static __device__ void or_(T* p, T v, int pe) { nvshmem_##BITS##_atomic_or(p, v, pe); }            \
    static __device__ T fetch_or(T* p, T v, int pe) { return nvshmem_##BITS##_atomic_fetch_or(p, v, pe); } \
    static __device__ void xor_(T* p, T v, int pe) { nvshmem_##BITS##_atomic_xor(p, v, pe); }          \
    static __device__ T fetch_xor(T* p, T v, int pe) { return nvshmem_##BITS##_atomic_fetch_xor(p, v, pe); } \
  };
AMO_TYPE(uint, uint, unsigned int)
AMO_TYPE(ulong, ulong, unsigned long)
AMO_TYPE(ulonglong, ulonglong, unsigned long long)
AMO_TYPE(int, int32, int)
AMO_TYPE(long, int64, long)

template <int OP, typename T>
__global__ void amo_kernel(T* flag, int pe, int iters) {
  if (pe != 0 || threadIdx.x != 0) return;
  const int peer = 1;
  [[maybe_unused]] T sink = 0;
  for (int i = 0; i < iters; ++i) {
    const T ti = static_cast<T>(i);
    if constexpr (OP == op_inc) Amo<T>::inc(flag, peer);
    else if constexpr (OP == op_fetch_inc) sink += Amo<T>::fetch_inc(flag, peer);
    else if constexpr (OP == op_set) Amo<T>::set(flag, ti, peer);
    else if constexpr (OP == op_add) Amo<T>::add(flag, static_cast<T>(415), peer);
    else if constexpr (OP == op_fetch_add) sink += Amo<T>::fetch_add(flag, static_cast<T>(415), peer);
    else if constexpr (OP == op_swap) sink += Amo<T>::swap(flag, ti, peer);
    else if constexpr (OP == op_cswap) sink += Amo<T>::cswap(flag, ti, static_cast<T>(i + 1), peer);
    else {
      const T ones = static_cast<T>(~T(0));
      const int bits = 8 * static_cast<int>(sizeof(T));
      if constexpr (OP == op_and) Amo<T>::and_(flag, i + 1 < bits ? static_cast<T>(ones << (i + 1)) : T(0), peer);
      else if constexpr (OP == op_fetch_and)
        sink += Amo<T>::fetch_and(flag, i + 1 < bits ? static_cast<T>(ones << (i + 1)) : T(0), peer);
      else if constexpr (OP == op_or) Amo<T>::or_(flag, i < bits ? static_cast<T>(T(1) << i) : T(0), peer);
      else if constexpr (OP == op_fetch_or) sink += Amo<T>::fetch_or(flag, i < bits ? static_cast<T>(T(1) << i) : T(0), peer);
      else if constexpr (OP == op_xor) Amo<T>::xor_(flag, T(1), peer);
      else if constexpr (OP == op_fetch_xor) sink += Amo<T>::fetch_xor(flag, T(1), peer);
    }
    constexpr bool fetching = OP == op_fetch_inc || OP == op_fetch_add || OP == op_fetch_and || OP == op_fetch_or ||
                              OP == op_fetch_xor || OP == op_swap || OP == op_cswap;
    if constexpr (!fetching) nvshmem_quiet();
  }
  nvshmem_quiet();
  if (sink == static_cast<T>(0x5a5a5a5a)) flag[0] = sink;  // keeps the fetched values live
}

struct TypeRun {
  const char* name;  // NVSHMEM's C type name in the job
  int bytes;
  void (*run)(int op, int iters, int warmup, void* flag, int me, cudaStream_t st, float* ms);
};

template <typename T, int OP>
static void launch_one(void* flag, int me, int iters, cudaStream_t st) {
  T* f = static_cast<T*>(flag);
  void* args[] = {&f, &me, &iters};
  if (nvshmemx_collective_launch((const void*)amo_kernel<OP, T>, dim3(1), dim3(1), args, 0, st) != 0) {
    fprintf(stderr, "shmem_atomic_latency: nvshmemx_collective_launch failed (PE %d)\n", me);
    exit(1);
  }
}

template <typename T>
static void launch_op(int op, void* flag, int me, int iters, cudaStream_t st) {
  switch (op) {
    case op_inc: return launch_one<T, op_inc>(flag, me, iters, st);
    case op_fetch_inc: return launch_one<T, op_fetch_inc>(flag, me, iters, st);
    case op_set: return launch_one<T, op_set>(flag, me, iters, st);
    case op_add: return launch_one<T, op_add>(flag, me, iters, st);
    case op_fetch_add: return launch_one<T, op_fetch_add>(flag, me, iters, st);
    case op_swap: return launch_one<T, op_swap>(flag, me, iters, st);
    case op_cswap: return launch_one<T, op_cswap>(flag, me, iters, st);
    default: break;
  }
  switch (op) {
    case op_and: return launch_one<T, op_and>(flag, me, iters, st);
    case op_fetch_and: return launch_one<T, op_fetch_and>(flag, me, iters, st);
    case op_or: return launch_one<T, op_or>(flag, me, iters, st);
    case op_fetch_or: return launch_one<T, op_fetch_or>(flag, me, iters, st);
    case op_xor: return launch_one<T, op_xor>(flag, me, iters, st);
    default: return launch_one<T, op_fetch_xor>(flag, me, iters, st);
  }
}

// The flag's value before the warm-up and before the timed launch (NVSHMEM's program's values).
template <typename T>
static T initial(int op) {
  switch (op) {
    case op_and: case op_fetch_and: return static_cast<T>(~T(0));
    case op_xor: case op_fetch_xor: case op_swap: return T(1);
    case op_set: return T(551);
    default: return T(0);
  }
}

template <typename T>
static void run_type(int op, int iters, int warmup, void* flag, int me, cudaStream_t st, float* ms) {
  const T init = initial<T>(op);
  pt::check(cudaMemcpy(flag, &init, sizeof init, cudaMemcpyHostToDevice), "cudaMemcpy");
  pt::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  nvshmem_barrier_all();
  launch_op<T>(op, flag, me, warmup, st);
  pt::check(cudaStreamSynchronize(st), "warm-up kernel");
  pt::check(cudaMemcpy(flag, &init, sizeof init, cudaMemcpyHostToDevice), "cudaMemcpy");
  pt::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  nvshmem_barrier_all();
  pt::Timer timer;
  *ms = timer.time(st, [&] { launch_op<T>(op, flag, me, iters, st); });
  nvshmem_barrier_all();
}

int main(int argc, char** argv) {
  const char* prog = "shmem_atomic_latency";
  const pt::Args a = pt::parse(argc, argv, prog);
  int op = -1;
  for (int i = 0; i < 13 && op < 0; ++i)
    if (!a.atomic_op.empty() && strncmp(a.atomic_op.c_str(), kOpNames[i], a.atomic_op.size()) == 0) op = i;
  if (op < 0) {
    fprintf(stderr, "%s: -a: unknown atomic operation '%s'\n", prog, a.atomic_op.c_str());
    return 2;
  }
  pt::init(prog);
  const int me = nvshmem_my_pe();
  int rc = 0;
  if (!pt::require_two_pes(prog)) {
    rc = 1;
  } else {
    void* flag = nvshmem_malloc(sizeof(uint64_t));
    cudaStream_t st;
    pt::check(cudaStreamCreate(&st), "cudaStreamCreate");
    const bool bitwise = op >= op_and && op <= op_fetch_xor, andor = op >= op_and && op <= op_fetch_or;
    // NVSHMEM's order of types for each class of operation (and/or: the 64-bit ones first).
    std::vector<TypeRun> types;
    if (!bitwise)
      types = {{"unsigned int", 4, run_type<unsigned int>},     {"unsigned long", 8, run_type<unsigned long>},
               {"unsigned long long", 8, run_type<unsigned long long>}, {"int32_t", 4, run_type<int32_t>},
               {"uint32_t", 4, run_type<uint32_t>},             {"uint64_t", 8, run_type<uint64_t>},
               {"int", 4, run_type<int>},                       {"long", 8, run_type<long>},
               {"size_t", 8, run_type<size_t>}};
    else if (andor)
      types = {{"unsigned long", 8, run_type<unsigned long>}, {"unsigned long long", 8, run_type<unsigned long long>},
               {"uint64_t", 8, run_type<uint64_t>},           {"uint32_t", 4, run_type<uint32_t>},
               {"unsigned int", 4, run_type<unsigned int>}};
    else
      types = {{"unsigned long", 8, run_type<unsigned long>}, {"unsigned long long", 8, run_type<unsigned long long>},
               {"uint64_t", 8, run_type<uint64_t>},           {"int64_t", 8, run_type<int64_t>},
               {"uint32_t", 4, run_type<uint32_t>},           {"unsigned int", 4, run_type<unsigned int>}};
    for (const TypeRun& t : types) {
      const int iters = andor ? (t.bytes == 8 ? 64 : 32) : 500, warmup = andor ? 0 : 50;
      float ms = 0;
      t.run(op, iters, warmup, flag, me, st, &ms);
      if (me == 0) {
        pt::Table table{std::string("shmem_at_") + t.name + "_" + kOpNames[op] + "_ping_lat", "None", "latency", "us",
                        '-', {}, {}};
        table.add(static_cast<size_t>(t.bytes), ms * 1000.0 / iters);
        pt::Args shown = a;
        shown.iters = iters;
        shown.warmup = warmup;
        table.print(shown, prog);
      }
    }
    cudaStreamDestroy(st);
    nvshmem_free(flag);
  }
  nvshmem_finalize();
  return rc;
}
